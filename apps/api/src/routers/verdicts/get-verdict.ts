import { confidencePercent, DebateIdInput, VerdictDetail } from '@verdict/contracts';
import { toDebateObject } from '@verdict/core';
import { keyProcedure } from '../../trpc/init.ts';

export const getVerdict = keyProcedure
  .meta({
    errors: { NOT_FOUND: 'Missing, or a private debate of another account' },
    openapi: {
      method: 'GET',
      path: '/v1/verdicts/{id}',
      summary: 'A debate and its full verdict (confidence as a whole-number percent)',
    },
  })
  .input(DebateIdInput)
  .output(VerdictDetail)
  .query(async ({ ctx, input }) => {
    const debate = await ctx.services.debateReads.visible(ctx.caller.userId, input.id);
    const verdict = debate.status === 'completed' ? debate.verdict : null;
    return {
      debate: toDebateObject(debate),
      verdict: verdict ? { ...verdict, confidence: confidencePercent(verdict.confidence) } : null,
    };
  });
