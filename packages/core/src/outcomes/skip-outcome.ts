import { changeOwnRecord, type OutcomeResources, outcomeQuery } from './outcome-resources.ts';

/** Marks a pending outcome skipped: it leaves the pending list and never counts in a score. */
export const skipOutcome =
  ({ db, clock }: OutcomeResources) =>
  (userId: string, debateId: string) =>
    changeOwnRecord(db, userId, debateId, async (em, before) => {
      // Skipping a told outcome would silently take it out of the score: only a pending one is skipped.
      if (before.status !== 'pending') return;
      await outcomeQuery(em)
        .updateTable('outcomes')
        .set({ status: 'skipped', recorded_at: new Date(clock.now()) })
        .where('debate_id', '=', debateId)
        .execute();
    });
