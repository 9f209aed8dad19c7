import { CreateDebateHeaders, CreatedDebate, CreateVerdictInput, earlyStopOf } from '@verdict/contracts';
import type { DebateRequest } from '@verdict/core';
import type { Caller } from '../../auth/credentials.ts';
import type { Context } from '../../trpc/context.ts';
import { keyProcedure } from '../../trpc/init.ts';
import { createdResponse, idempotencyKeyOf, providerKeysOf, routingOf } from '../debates/create-helpers.ts';

/** Options to compare are handed to the panel as context; a comparison is priced at 5 credits. */
function contextWithOptions(input: CreateVerdictInput): string | null {
  const parts = [
    input.context,
    input.options && `Options to compare:\n${input.options.map((o) => `- ${o}`).join('\n')}`,
  ];
  const text = parts.filter(Boolean).join('\n\n');
  return text === '' ? null : text;
}

export const createVerdict = keyProcedure
  .meta({
    errors: {
      INSUFFICIENT_CREDITS: 'Not enough credits for the mode',
      BYOK_REQUIRED: 'X-Provider-Keys on a plan without BYOK',
      CONFLICT: 'Idempotency-Key reused with another body',
      MONTHLY_LIMIT_REACHED: 'The free plan\u2019s debates of the month are used up',
      CONCURRENT_LIMIT: 'Too many debates pending, running or paused',
    },
    successStatus: 201,
    openapi: {
      requestHeaders: CreateDebateHeaders,
      method: 'POST',
      path: '/v1/verdicts',
      summary: 'Start a debate (default mode balanced); answers at once with its id and stream URL',
      description:
        'Credits: fast 1, balanced 3, thorough 8, a comparison (options) 5; a panel made larger than the ' +
        'mode’s with agentCount / maxRounds costs ⌊agents × rounds ÷ 3⌋. Idempotency-Key as on ' +
        'POST /api/debates. A comparison’s agents rank its options. Extensions, as on POST /api/debates: ' +
        'agentCount, maxRounds, skipCache, stopWhenConverged (with convergenceThreshold, default 0.8).',
    },
  })
  .input(CreateVerdictInput)
  .output(CreatedDebate)
  .mutation(async ({ ctx, input }) => {
    const result = await ctx.services.debates.create(v1DebateRequest(ctx, input));
    return createdResponse(ctx, result, `/v1/verdicts/${result.debateId}/stream`);
  });

/** The debate POST /v1/verdicts asks for: the create and its estimate read the same request. */
export function v1DebateRequest(ctx: Context & { caller: Caller }, input: CreateVerdictInput): DebateRequest {
  return {
    ownerId: ctx.caller.userId,
    route: 'v1',
    question: input.question,
    context: contextWithOptions(input),
    mode: input.mode,
    agents: input.agentCount,
    rounds: input.maxRounds,
    preset: null,
    routing: routingOf(ctx.caller),
    compare: (input.options?.length ?? 0) >= 2,
    compareOptions: input.options,
    earlyStop: earlyStopOf(input),
    skipCache: input.skipCache ?? false,
    providerKeys: providerKeysOf(ctx),
    idempotencyKey: idempotencyKeyOf(ctx),
    fingerprint: input,
  };
}
