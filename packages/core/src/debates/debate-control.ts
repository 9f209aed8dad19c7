import type { EntityManager } from '@mikro-orm/core';
import type { DebateCommandInput, DebateCommandResult } from '@verdict/contracts';
import type { Bus, DebateCommand } from '../bus/ports.ts';
import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import { AppError } from '../shared/app-error.ts';

export type { DebateInspection } from './inspect-debate.ts';

import { forgetIdempotencyKeys } from './creation/idempotency.ts';
import type { DebateAccess } from './debate-access.ts';
import { removeDebatePermanently } from './debate-record.ts';
import { inspectDebate } from './inspect-debate.ts';
import type { DebateTables } from './tables.ts';

/**
 * Where a debate's actor is: live from the engine node that holds it (its state and transition history), or,
 * when no node holds it, its stored status (the engine's chart says which state that implies) and the history
 * stored with the attempt's last snapshot (empty before the first step). `attempt` names the current attempt.
 */

/** Commands and debugging views for the owner of a debate, through whichever node holds it. */
/**
 * What else a permanent delete changes, in its transaction (wired by the composition): `beforeRemoval` with
 * the debates' rows locked FOR UPDATE and not yet deleted (the collections that hold them), `afterRemoval`
 * once they are gone (the owner's score).
 */
export type DebateRemovalHooks = {
  beforeRemoval?: (em: EntityManager, debateIds: string[]) => Promise<void>;
  afterRemoval?: (em: EntityManager, ownerId: string) => Promise<void>;
};

export function createDebateControl(
  access: DebateAccess,
  bus: Bus,
  db: Database,
  hooks: DebateRemovalHooks = {},
) {
  return {
    /**
     * DELETE /v1/verdicts/:id: cancels the debate if an engine runs it, then deletes it with its events and
     * turns. Deleting again answers as a success to the owner (a tombstone remembers), 404 to anyone else.
     */
    removePermanently: async (userId: string, id: string): Promise<void> => {
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
          .select('id')
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
      });
    },

    command: async (userId: string, input: DebateCommandInput): Promise<DebateCommandResult> => {
      await access.controlled(userId, input.id);
      const command: DebateCommand =
        input.type === 'inject'
          ? { type: 'inject', payload: { content: input.payload?.content ?? '' } }
          : { type: input.type };
      const reply = await bus.commands.send(input.id, command);
      if (reply === 'no_engine') {
        // Finished, not started yet, or between two nodes (one died; the next restores it within seconds).
        throw new AppError(
          'DEBATE_NOT_RUNNING',
          'No engine is running this debate right now; if it is not finished, try again in a few seconds',
        );
      }
      return {
        accepted: reply.accepted,
        state: reply.state,
        ...(reply.message ? { message: reply.message } : {}),
      };
    },

    inspect: inspectDebate({ access, bus, db }),
  };
}
