import type { DecisionScore } from '@verdict/contracts';
import { decisionScore } from './score-math.ts';
import { type ScoreResources, storedScore } from './score-resources.ts';

/** The score a user has before any refresh: nothing tracked, nothing resolved. */
const EMPTY_SCORE: DecisionScore = decisionScore([], 0);

/** The caller's decision score as last stored, or the empty one before any refresh. */
export const myScore =
  (resources: ScoreResources) =>
  async (userId: string): Promise<DecisionScore> =>
    (await storedScore(resources, userId, 'score')) ?? EMPTY_SCORE;
