import { CreateDebateHeaders, CreateDebateInput, CreatedDebate, earlyStopOf } from '@verdict/contracts';
import type { DebateRequest } from '@verdict/core';
import type { Caller } from '../../auth/credentials.ts';
import type { Context } from '../../trpc/context.ts';
import { userProcedure } from '../../trpc/init.ts';
import { createdResponse, idempotencyKeyOf, providerKeysOf, routingOf } from './create-helpers.ts';

export const createDebate = userProcedure
  .meta({
    errors: {
      BYOK_REQUIRED:
        "X-Provider-Keys on a plan without BYOK, attachments without BYOK Pro, or a workspace whose owner's " +
        'plan no longer has workspaces',
      FORBIDDEN: 'Not a member of the workspace, or a viewer',
      VALIDATION_ERROR: 'attachmentIds names something other than the caller’s own ready attachments',
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
        'Paid in credits (fast 1, balanced 3, thorough 8; never less than the mode, and ⌊agents × rounds ÷ 3⌋ ' +
        'for a panel agentCount / maxRounds make larger than the mode’s) when the balance covers it; free-plan accounts ' +
        'then get a monthly allowance on a lighter judge; BYOK plans send X-Provider-Keys and are not ' +
        'charged. In a workspace (member or above) the workspace owner’s plan and credits pay, and every ' +
        'member reads the debate. Idempotency-Key: the same key and body within 24 h returns the first debate; a ' +
        'different body is 409. An identical completed debate of the last 24 h answers from cache ' +
        '(cached: true, no charge) unless skipCache. stopWhenConverged: the debate stops once its agents’ ' +
        'positions converge (convergenceThreshold, default 0.8), the judge runs at once, and the unspoken ' +
        'rounds’ share of the credits is refunded; the verdict says so in stoppedEarly.',
    },
  })
  .input(CreateDebateInput)
  .output(CreatedDebate)
  .mutation(async ({ ctx, input }) => {
    const result = await ctx.services.debates.create(apiDebateRequest(ctx, input));
    return createdResponse(ctx, result, `/api/debates/${result.debateId}/stream`);
  });

/**
 * The debate POST /api/debates asks for, from its body and headers: the create and its estimate read the
 * same request (an attachment needs BYOK Pro for both).
 */
export function apiDebateRequest(ctx: Context & { caller: Caller }, input: CreateDebateInput): DebateRequest {
  const attachmentIds = input.attachmentIds ?? [];
  return {
    ownerId: ctx.caller.userId,
    route: 'api',
    question: input.question,
    context: input.context ?? null,
    mode: input.mode,
    workspaceId: input.workspaceId ?? null,
    agents: input.agentCount,
    rounds: input.maxRounds,
    preset: input.preset ?? null,
    routing: routingOf(ctx.caller),
    compare: false,
    earlyStop: earlyStopOf(input),
    // A cached verdict was reached without these documents: a debate with attachments always runs.
    skipCache: (input.skipCache ?? false) || attachmentIds.length > 0,
    providerKeys: providerKeysOf(ctx),
    idempotencyKey: idempotencyKeyOf(ctx),
    fingerprint: input,
    attachmentIds,
  };
}
