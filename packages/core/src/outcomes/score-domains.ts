import type { DomainAccuracy } from '@verdict/contracts';
import { type ScoreResources, storedScore } from './score-resources.ts';

/** The caller's stored accuracy per domain (none before any refresh). */
export const scoreDomains =
  (resources: ScoreResources) =>
  async (userId: string): Promise<DomainAccuracy[]> =>
    (await storedScore(resources, userId, 'domains')) ?? [];
