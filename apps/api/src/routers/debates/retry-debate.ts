import { DebateIdInput, RetryResult } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';
import { providerKeysOf } from './create-helpers.ts';

export const retryDebate = userProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/debates/{id}/retry',
      tags: ['debates'],
      summary: 'Start a failed debate over (same question and mode; previous events cleared)',
      description:
        'A debit refunded on the failure is taken again; a BYOK debate needs X-Provider-Keys again.',
      protect: true,
      errorResponses: {
        400: 'Invalid id, or X-Provider-Keys missing for a BYOK debate',
        401: 'Not authenticated',
        404: 'Missing or not yours',
        409: 'DEBATE_NOT_FAILED, or DEBATE_ALREADY_RUNNING when an engine runs it',
        429: 'CONCURRENT_LIMIT, QUOTA_EXCEEDED or RATE_LIMITED',
      },
    },
  })
  .input(DebateIdInput)
  .output(RetryResult)
  .mutation(async ({ ctx, input }) => {
    const { attempt } = await ctx.core.retryDebate(ctx.caller.userId, input.id, providerKeysOf(ctx));
    return { debateId: input.id, attempt, status: 'pending' as const };
  });
