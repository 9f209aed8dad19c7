import { router } from '../../trpc/init.ts';
import { createScheduledDebate } from './create-scheduled-debate.ts';
import { deleteScheduledDebate } from './delete-scheduled-debate.ts';
import { getScheduledDebate } from './get-scheduled-debate.ts';
import { listScheduledDebates } from './list-scheduled-debates.ts';
import { updateScheduledDebate } from './update-scheduled-debate.ts';

export const scheduledDebatesRouter = router({
  create: createScheduledDebate,
  list: listScheduledDebates,
  get: getScheduledDebate,
  update: updateScheduledDebate,
  delete: deleteScheduledDebate,
});
