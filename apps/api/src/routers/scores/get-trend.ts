import { TrendPoint, TrendQuery } from '@verdict/contracts';
import { z } from 'zod';
import { userProcedure } from '../../trpc/init.ts';

export const getTrend = userProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/scores/me/trend',
      summary: 'A point per UTC day of the last `days` (default 90), from the first resolved outcome on',
      description:
        'brierScore: the score of everything resolved up to that day; rollingAccuracy and sampleSize: the 30 days ending that day. Empty when nothing is resolved.',
    },
  })
  .input(TrendQuery)
  .output(z.array(TrendPoint))
  .query(({ ctx, input }) => ctx.services.scores.trend(ctx.caller.userId, input.days));
