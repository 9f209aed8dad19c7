import type { Citation, ClaimEdge, EvidencePassage, EvidenceSource } from '@verdict/contracts';

/** A stored passage as the evidence read lists it. */
export type ListedPassage = {
  evidenceId: string;
  source: EvidenceSource;
  text: string;
  start: number;
  end: number;
};

/** A claim of the debate's current attempt with the citations stored with its turn. */
export type CitingTurn = { claimId: string; agent: string; round: number; citations: readonly Citation[] };

/**
 * Each passage with the claims that cited it and what it bears on: it supports the claims that cited it
 * with a verified citation, and undercuts the claims those rebut (the argument graph's `rebuts` edges).
 * An unverified citation is listed under the passage it named but bears on nothing.
 */
export function passageBearings(
  passages: readonly ListedPassage[],
  turns: readonly CitingTurn[],
  edges: readonly ClaimEdge[],
): EvidencePassage[] {
  const rebutted = new Map<string, string[]>();
  for (const edge of edges) {
    if (edge.kind === 'rebuts') rebutted.set(edge.from, [...(rebutted.get(edge.from) ?? []), edge.to]);
  }
  return passages.map((passage) => {
    const citations = turns.flatMap((turn) =>
      turn.citations
        .filter((citation) => citation.evidenceId === passage.evidenceId)
        .map((citation) => ({
          claimId: turn.claimId,
          agent: turn.agent,
          round: turn.round,
          quote: citation.quote,
          verified: citation.verified,
        })),
    );
    const supports = unique(citations.filter((c) => c.verified).map((c) => c.claimId));
    const undercuts = unique(supports.flatMap((claimId) => rebutted.get(claimId) ?? []));
    return { ...passage, citations, supports, undercuts };
  });
}

const unique = (ids: string[]) => [...new Set(ids)];
