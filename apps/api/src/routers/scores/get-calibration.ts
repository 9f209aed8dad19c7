import { CalibrationBucket } from '@verdict/contracts';
import { z } from 'zod';
import { userProcedure } from '../../trpc/init.ts';

export const getCalibration = userProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/scores/me/calibration',
      summary: 'How often verdicts of each confidence came true, in 0.1-wide buckets',
      description:
        'actualRate is the mean outcome (1, 0.5, 0) of the bucket. Empty buckets are left out; empty under 5 resolved outcomes.',
    },
  })
  .input(z.void())
  .output(z.array(CalibrationBucket))
  .query(({ ctx }) => ctx.services.scores.calibration(ctx.caller.userId));
