import { citedEvidence } from './cited-evidence.ts';
import type { EvidenceReadResources } from './evidence-read-resources.ts';
import { readEvidence } from './read-evidence.ts';

/**
 * The evidence reads: GET /api/debates/:id/evidence and /v1/verdicts/:id/evidence (whoever may read the
 * debate, on a plan with the evidence engine — the caller's plan, as the argument graph's gate decides:
 * the one told to upgrade is the one who can), and the cited passages a share link reveals. One operation
 * a file.
 */
export function createEvidenceReads(resources: EvidenceReadResources) {
  return {
    read: readEvidence(resources),
    cited: citedEvidence(resources),
  };
}

export type EvidenceReads = ReturnType<typeof createEvidenceReads>;
