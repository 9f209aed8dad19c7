import { Poll, PollVoteInput } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';

export const voteInPoll = userProcedure
  .meta({
    errors: {
      VALIDATION_ERROR: 'optionId is not an option of this poll',
      NOT_FOUND: 'The debate is missing or deleted, or it has no such poll',
      FORBIDDEN: 'A private debate of another account',
      POLL_CLOSED: 'The poll is closed',
    },
    openapi: {
      method: 'POST',
      path: '/api/debates/{debateId}/polls/{pollId}/vote',
      summary: 'Vote in a poll (again, to change your choice)',
      description:
        'One vote per user: voting again replaces the choice. Allowed on your own debates and on public ones. ' +
        'Answers the poll with its tallies after the vote.',
    },
  })
  .input(PollVoteInput)
  .output(Poll)
  .mutation(({ ctx, input }) =>
    ctx.services.polls.vote(ctx.caller.userId, input.debateId, input.pollId, input.optionId),
  );
