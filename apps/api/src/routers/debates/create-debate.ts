import { CreateDebateHeaders, CreateDebateInput, CreatedDebate } from '@verdict/contracts';
import { AppError } from '@verdict/core';
import { userProcedure } from '../../trpc/init.ts';
import { createdResponse, idempotencyKeyOf, providerKeysOf, routingOf } from './create-helpers.ts';

export const createDebate = userProcedure
  .meta({
    errors: {
      BYOK_REQUIRED: 'X-Provider-Keys on a plan without BYOK, or attachments without BYOK Pro',
      FORBIDDEN: 'Not a member of the workspace',
      CONFLICT: 'Idempotency-Key reused with another body',
      MONTHLY_LIMIT_REACHED: 'The free plan\u2019s debates of the month are used up',
      CONCURRENT_LIMIT: 'Too many debates pending, running or paused',
      QUOTA_EXCEEDED: 'Not enough credits for the mode',
    },
    successStatus: 201,
    openapi: {
      requestHeaders: CreateDebateHeaders,
      method: 'POST',
      path: '/api/debates',
      summary: 'Start a debate; answers at once with its id and stream URL',
      description:
        'Paid in credits (fast 1, balanced 3, thorough 8) when the balance covers it; free-plan accounts ' +
        'then get a monthly allowance on a lighter judge; BYOK plans send X-Provider-Keys and are not ' +
        'charged. Idempotency-Key: the same key and body within 24 h returns the first debate; a ' +
        'different body is 409. An identical completed debate of the last 24 h answers from cache ' +
        '(cached: true, no charge) unless skipCache.',
    },
  })
  .input(CreateDebateInput)
  .output(CreatedDebate)
  .mutation(async ({ ctx, input }) => {
    const user = await ctx.services.accounts.findUser(ctx.caller.userId);
    if (input.workspaceId) throw new AppError('FORBIDDEN', 'You are not a member of this workspace');
    if (input.attachmentIds?.length) {
      if (user?.plan !== 'byok_pro')
        throw new AppError('BYOK_REQUIRED', 'Attachments need the BYOK Pro plan');
      throw new AppError('VALIDATION_ERROR', 'Unknown attachment', {
        details: [{ path: 'attachmentIds', message: 'no such attachment', code: 'not_found' }],
      });
    }
    const result = await ctx.services.debateCreation.create({
      ownerId: ctx.caller.userId,
      route: 'api',
      question: input.question,
      context: input.context ?? null,
      mode: input.mode,
      agents: input.agentCount,
      rounds: input.maxRounds,
      preset: input.preset ?? null,
      routing: routingOf(ctx.caller),
      compare: false,
      skipCache: input.skipCache ?? false,
      providerKeys: providerKeysOf(ctx),
      idempotencyKey: idempotencyKeyOf(ctx),
      fingerprint: input,
    });
    return createdResponse(ctx, result, `/api/debates/${result.debateId}/stream`);
  });
