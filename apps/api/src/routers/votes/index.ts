import { router } from '../../trpc/init.ts';
import { castVote } from './cast-vote.ts';
import { listVotes } from './list-votes.ts';
import { removeVote } from './remove-vote.ts';

export const votesRouter = router({ list: listVotes, cast: castVote, remove: removeVote });
