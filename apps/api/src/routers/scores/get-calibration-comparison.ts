import { CalibrationComparison } from '@verdict/contracts';
import { z } from 'zod';
import { userProcedure } from '../../trpc/init.ts';

export const getCalibrationComparison = userProcedure
  .meta({
    extension: true,
    openapi: {
      method: 'GET',
      path: '/api/scores/calibration',
      summary: "Reliability of the judge's raw confidence beside the calibrated confidence, on your outcomes",
      description:
        'Your resolved outcomes (the newest 5000) bucketed by raw confidence and by the calibrated confidence your ' +
        'current curves give them, with the Brier score of each and the curve (whether it is applied to new ' +
        'verdicts: not below `minimum` resolved outcomes). The curves were fitted on these outcomes, so the ' +
        'calibrated side is in-sample.',
    },
  })
  .input(z.void())
  .output(CalibrationComparison)
  .query(({ ctx }) => ctx.services.scores.calibrationComparison(ctx.caller.userId));
