import { CreatedDebate, ForkInput } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';
import { createdResponse, routingOf } from './create-helpers.ts';

export const forkDebate = userProcedure
  .meta({
    errors: {
      NOT_FOUND: 'Missing, or neither public nor shared with allowFork',
      MONTHLY_LIMIT_REACHED: 'The free plan\u2019s debates of the month are used up',
      CONCURRENT_LIMIT: 'Too many debates pending, running or paused',
      QUOTA_EXCEEDED: 'Not enough credits for a fast debate',
    },
    successStatus: 201,
    openapi: {
      method: 'POST',
      path: '/api/debates/{id}/fork',
      summary: 'Run a public debate again, optionally with a modified question, in fast mode on your billing',
      description:
        'Public debates, and debates whose share link allows forks. Forking someone else\u2019s debate ' +
        'notifies its owner (type fork).',
    },
  })
  .input(ForkInput)
  .output(CreatedDebate)
  .mutation(async ({ ctx, input }) => {
    const result = await ctx.services.forks.fork(input.id, (source) => ({
      ownerId: ctx.caller.userId,
      route: 'api',
      question: input.modifiedQuestion ?? source.question,
      context: source.context ?? null,
      mode: 'fast',
      preset: null,
      routing: routingOf(ctx.caller),
      compare: false,
      skipCache: true,
      providerKeys: null,
      idempotencyKey: null,
      fingerprint: input,
    }));
    return createdResponse(ctx, result, `/api/debates/${result.debateId}/stream`);
  });
