import { DecisionScore } from '@verdict/contracts';
import { z } from 'zod';
import { userProcedure } from '../../trpc/init.ts';

export const getScore = userProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/scores/me',
      summary: "The caller's decision score: Brier score, accuracy, streak of correct verdicts, per domain",
      description:
        'Brier score = mean of (verdict confidence − o)², o = 1 correct, 0.5 partially_correct, 0 wrong; ' +
        '0.5 until an outcome is resolved. accuracyPercentage = (1 − brierScore) × 100. Recalculated ' +
        'asynchronously after each outcome: within seconds.',
    },
  })
  .input(z.void())
  .output(DecisionScore)
  .query(({ ctx }) => ctx.services.scores.me(ctx.caller.userId));
