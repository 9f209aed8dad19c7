import type { TablesOf } from '../db/kysely.ts';
import type { CalibrationCurveSchema } from './calibration/calibration-curve.entity.ts';
import type { OutcomeSchema } from './outcome.entity.ts';
import type { ScoreWorkSchema } from './score-work.entity.ts';
import type { UserScoreSchema } from './user-score.entity.ts';

/** The tables outcomes and scores own, for typed queries (db/kysely.ts). */
export type OutcomeTables = TablesOf<
  typeof OutcomeSchema | typeof UserScoreSchema | typeof ScoreWorkSchema | typeof CalibrationCurveSchema
>;
