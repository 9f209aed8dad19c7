import { DebateIdInput, RetryDebateHeaders, RetryResult } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';
import { providerKeysOf } from './create-helpers.ts';
import { ONE_DEBATE_ERRORS } from './error-responses.ts';

export const retryDebate = userProcedure
  .meta({
    errors: {
      ...ONE_DEBATE_ERRORS,
      DEBATE_NOT_FAILED: 'The debate has not failed',
      DEBATE_ALREADY_RUNNING: 'An engine is running the debate',
      CONCURRENT_LIMIT: 'Too many debates pending, running or paused',
      QUOTA_EXCEEDED: 'Not enough credits to take the refunded charge again',
      FORBIDDEN: 'A workspace debate whose creator is no longer a member who may write there',
      BYOK_REQUIRED: 'A workspace debate whose owner is no longer on a plan with workspaces',
    },
    openapi: {
      requestHeaders: RetryDebateHeaders,
      method: 'POST',
      path: '/api/debates/{id}/retry',
      summary: 'Start a failed debate over (same question and mode; previous events cleared)',
      description:
        'A debit refunded on the failure is taken again (for a workspace debate, from the workspace owner, by ' +
        'the rules of a create); a BYOK debate needs X-Provider-Keys again.',
    },
  })
  .input(DebateIdInput)
  .output(RetryResult)
  .mutation(async ({ ctx, input }) => {
    const { attempt } = await ctx.services.debates.retry(ctx.caller.userId, input.id, providerKeysOf(ctx));
    return { debateId: input.id, attempt, status: 'pending' as const };
  });
