import { router } from '../../trpc/init.ts';
import { closePoll } from './close-poll.ts';
import { createPoll } from './create-poll.ts';
import { deletePoll } from './delete-poll.ts';
import { listPolls } from './list-polls.ts';
import { voteInPoll } from './vote-in-poll.ts';

export const pollsRouter = router({
  list: listPolls,
  create: createPoll,
  vote: voteInPoll,
  close: closePoll,
  delete: deletePoll,
});
