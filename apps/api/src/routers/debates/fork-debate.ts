import { CreatedDebate, ForkInput } from '@verdict/contracts';
import { AppError } from '@verdict/core';
import { userProcedure } from '../../trpc/init.ts';
import { createdResponse, routingOf } from './create-helpers.ts';

export const forkDebate = userProcedure
  .meta({
    errors: {
      NOT_FOUND: 'Missing, or not public',
      MONTHLY_LIMIT_REACHED: 'The free plan\u2019s debates of the month are used up',
      CONCURRENT_LIMIT: 'Too many debates pending, running or paused',
      QUOTA_EXCEEDED: 'Not enough credits for a fast debate',
    },
    successStatus: 201,
    openapi: {
      method: 'POST',
      path: '/api/debates/{id}/fork',
      summary: 'Run a public debate again, optionally with a modified question, in fast mode on your billing',
    },
  })
  .input(ForkInput)
  .output(CreatedDebate)
  .mutation(async ({ ctx, input }) => {
    const source = await ctx.services.debateReads.visible(ctx.caller.userId, input.id);
    if (!source.isPublic) throw new AppError('NOT_FOUND', 'Debate not found');
    const result = await ctx.services.debateCreation.create({
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
    });
    return createdResponse(ctx, result, `/api/debates/${result.debateId}/stream`);
  });
