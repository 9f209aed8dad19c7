import {
  buildCorpus,
  type Database,
  type Embedder,
  EVIDENCE_PROMPT_BUDGET,
  passagesByNumber,
  retrievePassages,
} from '@verdict/core';
import type { EvidencePort } from '../runner/evidence.ts';

/**
 * A debate's corpus as its actor reads it, over core's evidence/: the corpus brought up to date at each
 * round, passages retrieved per turn within the prompt budget (full-text, and by vector where the node
 * has an embedder), cited passages looked up by number to check them.
 */
export function debateEvidence(
  db: Database,
  debateId: string,
  embedder: Embedder | null,
  /** An embedding call that failed: the corpus and the turn go on with full text, and the node says so. */
  onEmbeddingError: (error: unknown) => void,
): EvidencePort {
  return {
    prepare: () => buildCorpus(db, debateId, { embedder, onEmbeddingError }),
    retrieve: (query) =>
      retrievePassages(db, debateId, {
        query,
        budgetChars: EVIDENCE_PROMPT_BUDGET,
        embedder,
        onEmbeddingError,
      }),
    passages: async (evidenceIds) => {
      const numbers = evidenceIds.map((id) => Number(id.slice(1))).filter(Number.isSafeInteger);
      const found = await passagesByNumber(db, debateId, numbers);
      return new Map(found.map((passage) => [passage.evidenceId, passage]));
    },
  };
}
