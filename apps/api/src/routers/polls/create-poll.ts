import { CreatePollInput, POLLS_PER_DEBATE_MAX, Poll } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';

export const createPoll = userProcedure
  .meta({
    errors: {
      VALIDATION_ERROR: `The debate already has ${POLLS_PER_DEBATE_MAX} polls`,
      NOT_FOUND: 'The debate is missing or deleted',
      FORBIDDEN: "Not the debate's owner (a public debate of another account, or a private one)",
    },
    successStatus: 201,
    openapi: {
      method: 'POST',
      path: '/api/debates/{debateId}/polls',
      summary: 'Put a poll to the readers of your debate',
      description: 'The debate owner only. The poll starts open; each option gets an id, which votes name.',
    },
  })
  .input(CreatePollInput)
  .output(Poll)
  .mutation(({ ctx, input: { debateId, ...poll } }) =>
    ctx.services.polls.create(ctx.caller.userId, debateId, poll),
  );
