import { router } from '../../trpc/init.ts';
import { getOutcome } from './get-outcome.ts';
import { listOutcomeHistory } from './list-history.ts';
import { listPendingOutcomes } from './list-pending.ts';
import { recordOutcome } from './record-outcome.ts';
import { setOutcomeReminder } from './set-reminder.ts';
import { skipOutcome } from './skip-outcome.ts';

export const outcomesRouter = router({
  record: recordOutcome,
  skip: skipOutcome,
  setReminder: setOutcomeReminder,
  get: getOutcome,
  pending: listPendingOutcomes,
  history: listOutcomeHistory,
});
