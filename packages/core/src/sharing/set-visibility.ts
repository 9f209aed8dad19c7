import type { DebateVisibility } from '@verdict/contracts';
import { recordAudit } from '../audit/record-audit.ts';
import { auditOwnerOf, visibilityName } from '../debates/debate-audit.ts';
import { setDebatePublic } from '../debates/debate-record.ts';
import { notFound } from '../shared/app-error.ts';
import { type SharingResources, sharingQuery } from './sharing-resources.ts';

/**
 * Makes the debate public (which takes the right to publish it: debate-access.ts) or private again. The
 * visibility is read locked in the change's transaction, so the entry's before is what it really was; a
 * debate left as it was records nothing.
 */
export const setVisibility =
  ({ db, clock, debateAccess }: SharingResources) =>
  async (userId: string, id: string, isPublic: boolean): Promise<DebateVisibility> => {
    const debate = await debateAccess.controlled(userId, id, isPublic ? 'publish' : 'control');
    await db.em().transactional(async (em) => {
      const row = await sharingQuery(em)
        .selectFrom('debates')
        .select('is_public')
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .forUpdate()
        .executeTakeFirst();
      if (!row) throw notFound('Debate');
      if (row.is_public === isPublic) return;
      await setDebatePublic(em, id, isPublic);
      await recordAudit(em, clock, {
        owner: auditOwnerOf(debate),
        action: 'debate.update',
        target: { type: 'debate', id },
        changes: { visibility: { before: visibilityName(row.is_public), after: visibilityName(isPublic) } },
      });
    });
    return { id, isPublic };
  };
