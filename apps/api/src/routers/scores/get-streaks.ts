import { Streaks } from '@verdict/contracts';
import { z } from 'zod';
import { userProcedure } from '../../trpc/init.ts';

export const getStreaks = userProcedure
  .meta({
    errors: { STREAKS_ERROR: 'The streaks could not be computed' },
    openapi: {
      method: 'GET',
      path: '/api/streaks',
      summary: 'Consecutive UTC days with a debate created, the longest run, and debate-count milestones',
      description:
        'currentStreak ends today or yesterday (a day not over yet does not break it). Deleted debates do not count.',
    },
  })
  .input(z.void())
  .output(Streaks)
  .query(({ ctx }) => ctx.services.streaks.of(ctx.caller.userId));
