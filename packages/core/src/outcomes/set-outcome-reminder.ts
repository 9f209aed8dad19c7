import type { OutcomeReminderInput } from '@verdict/contracts';
import { changeOwnRecord, type OutcomeResources, outcomeQuery } from './outcome-resources.ts';

/** When to remind the caller to tell what happened: once due, the outcome comes first in the pending list. */
export const setOutcomeReminder =
  ({ db }: OutcomeResources) =>
  (userId: string, debateId: string, input: OutcomeReminderInput) =>
    changeOwnRecord(db, userId, debateId, async (em) => {
      await outcomeQuery(em)
        .updateTable('outcomes')
        .set({ reminder_at: new Date(input.reminderAt) })
        .where('debate_id', '=', debateId)
        .execute();
    });
