import type { EvidencePassage } from '@verdict/contracts';
import { type EvidenceReadResources, evidenceOf } from './evidence-read-resources.ts';

/**
 * The passages a shared debate's transcript cites, for its share page: a link shows what the
 * transcript rests on, never the rest of the owner's documents.
 */
export const citedEvidence =
  ({ db }: EvidenceReadResources) =>
  (debateId: string, attempt: number): Promise<EvidencePassage[]> =>
    evidenceOf(db, debateId, attempt, true);
