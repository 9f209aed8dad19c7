import type { RecordOutcomeInput } from '@verdict/contracts';
import { queueDebateWebhook } from '../outbox/webhook-outbox.ts';
import { changeOwnRecord, type OutcomeResources, outcomeQuery } from './outcome-resources.ts';
import { queueScoreRefresh } from './score-queue.ts';

/**
 * Records what happened (again, to correct it): `outcome.recorded` the first time a status is given,
 * `outcome.updated` after, queued with the change, and a refresh of the caller's score for the score
 * worker.
 */
export const recordOutcome =
  ({ db, clock }: OutcomeResources) =>
  (userId: string, debateId: string, input: RecordOutcomeInput) =>
    changeOwnRecord(db, userId, debateId, async (em, before) => {
      const at = new Date(clock.now());
      await outcomeQuery(em)
        .updateTable('outcomes')
        .set({
          status: input.outcomeStatus,
          notes: input.outcomeNotes ?? null,
          satisfaction_score: input.satisfactionScore ?? null,
          recorded_at: at,
        })
        .where('debate_id', '=', debateId)
        .execute();
      const firstTime = before.status === 'pending' || before.status === 'skipped';
      const event = firstTime ? 'outcome.recorded' : 'outcome.updated';
      await queueDebateWebhook(em, {
        debateId,
        event,
        dedupeKey: `${event}:${debateId}:${at.toISOString()}`,
        payload: {
          debateId,
          outcomeStatus: input.outcomeStatus,
          ...(firstTime ? {} : { previousStatus: before.status }),
          recordedAt: at.toISOString(),
        },
      });
      await queueScoreRefresh(em, userId);
    });
