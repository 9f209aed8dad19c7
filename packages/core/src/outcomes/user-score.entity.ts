import { defineEntity, p } from '@mikro-orm/core';
import type { CalibrationBucket, DecisionScore, DomainAccuracy } from '@verdict/contracts';
import { User } from '../accounts/user.entity.ts';
import type { DayTotals } from './score-math.ts';

/**
 * A user's decision score as the score worker last computed it from their outcomes, so reading it costs the
 * same with 10 outcomes or 10,000. `daily` keeps per-day totals, from which a trend of any length is cut.
 */
export const UserScoreSchema = defineEntity({
  name: 'UserScore',
  tableName: 'user_scores',
  properties: {
    // A key that is only a foreign key gets `on update cascade` by default; ids never change.
    user: () => p.manyToOne(User).primary().deleteRule('cascade').updateRule('no action'),
    score: p.json<DecisionScore>(),
    calibration: p.json<CalibrationBucket[]>(),
    domains: p.json<DomainAccuracy[]>(),
    daily: p.json<DayTotals[]>(),
    updatedAt: p.datetime().defaultRaw('now()'),
  },
});

export class UserScore extends UserScoreSchema.class {}
UserScoreSchema.setClass(UserScore);
