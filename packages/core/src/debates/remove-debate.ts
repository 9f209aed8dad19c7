import { recordAudit } from '../audit/record-audit.ts';
import { query } from '../db/kysely.ts';
import { AppError } from '../shared/app-error.ts';
import { forgetIdempotencyKeys } from './creation/idempotency.ts';
import { debateAuditOwner } from './debate-audit.ts';
import { removeDebatePermanently } from './debate-record.ts';
import type { DebateControlResources } from './debate-resources.ts';
import type { DebateTables } from './tables.ts';

/**
 * DELETE /v1/verdicts/:id: cancels the debate if an engine runs it, then deletes it with its events and
 * turns. Deleting again answers as a success to the owner (a tombstone remembers), 404 to anyone else.
 */
export const removeDebate =
  ({ db, bus, clock, hooks = {} }: DebateControlResources) =>
  async (userId: string, id: string): Promise<void> => {
    const k = query<DebateTables>(db.em());
    const debate = await k.selectFrom('debates').select('owner_id').where('id', '=', id).executeTakeFirst();
    if (!debate) {
      const tombstone = await k
        .selectFrom('deleted_debates')
        .select('id')
        .where('id', '=', id)
        .where('owner_id', '=', userId)
        .executeTakeFirst();
      if (tombstone) return;
      throw new AppError('NOT_FOUND', 'Debate not found');
    }
    if (debate.owner_id !== userId) throw new AppError('NOT_FOUND', 'Debate not found');
    await bus.commands.send(id, { type: 'cancel' }, 2000);
    await db.em().transactional(async (em) => {
      await forgetIdempotencyKeys(em, { debateId: id, ownerId: userId });
      const locked = await query<DebateTables>(em)
        .selectFrom('debates')
        .select(['id', 'workspace_id'])
        .where('id', '=', id)
        .where('owner_id', '=', userId)
        .forUpdate()
        .execute();
      await hooks.beforeRemoval?.(
        em,
        locked.map((row) => row.id),
      );
      await removeDebatePermanently(em, { id, ownerId: userId });
      await hooks.afterRemoval?.(em, userId);
      // One entry for the debate locked and removed; none when another delete removed it first.
      for (const row of locked) {
        await recordAudit(em, clock, {
          owner: debateAuditOwner({ workspaceId: row.workspace_id, ownerId: userId }),
          action: 'debate.purge',
          target: { type: 'debate', id },
        });
      }
    });
  };
