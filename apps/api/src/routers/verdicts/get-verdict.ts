import { DebateIdInput, VerdictDetail } from '@verdict/contracts';
import { toDebateObject } from '@verdict/core';
import { keyProcedure } from '../../trpc/init.ts';

export const getVerdict = keyProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/v1/verdicts/{id}',
      tags: ['v1'],
      summary: 'A debate and its full verdict (confidence as a whole-number percent)',
      protect: true,
      errorResponses: {
        400: 'Invalid id',
        401: 'Missing or invalid key',
        404: 'Missing or private',
        429: 'Rate limited',
      },
    },
  })
  .input(DebateIdInput)
  .output(VerdictDetail)
  .query(async ({ ctx, input }) => {
    const debate = await ctx.core.debateReads.visible(ctx.caller.userId, input.id);
    const verdict = debate.status === 'completed' ? debate.verdict : null;
    return {
      debate: toDebateObject(debate),
      verdict: verdict ? { ...verdict, confidence: Math.round(verdict.confidence * 100) } : null,
    };
  });
