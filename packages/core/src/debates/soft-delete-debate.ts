import { recordAudit } from '../audit/record-audit.ts';
import { auditOwnerOf } from './debate-audit.ts';
import { softDeleteDebate as markDeleted } from './debate-record.ts';
import type { DebateReadResources } from './debate-resources.ts';

/** Hides the debate from lists and reads, for whoever controls it; recorded with the change. */
export const softDeleteDebate =
  ({ db, clock, access }: DebateReadResources) =>
  async (userId: string, id: string): Promise<void> => {
    const debate = await access.controlled(userId, id);
    await db.em().transactional(async (em) => {
      // Two deletes at once both pass the access check; only the one that deleted it records the change.
      if (!(await markDeleted(em, id, new Date(clock.now())))) return;
      await recordAudit(em, clock, {
        owner: auditOwnerOf(debate),
        action: 'debate.delete',
        target: { type: 'debate', id },
      });
    });
  };
