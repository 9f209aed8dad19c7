import { CITATION_PATTERN, type ClaimEdge, type ClaimEdgeKind, type GraphClaim } from '@verdict/contracts';

/** One argument or rebuttal as its event stored it, before the graph weighs it. */
export type SpokenClaim = Omit<GraphClaim, 'weight'>;

/** The agree and disagree counts of a claim; a claim nobody voted on has none. */
export type VoteCounts = { agree: number; disagree: number };

/** The graph of a debate's claims: who answered or built on whom, and how readers voted on each. */
export type ClaimGraph = { claims: GraphClaim[]; edges: ClaimEdge[] };

/**
 * The claims a turn cites with `[supports <claimId>]` / `[rebuts <claimId>]`, in the order written. Read
 * leniently, as models write: any case, singular or plural, an optional colon; what the ids name is not
 * checked here.
 */
export function citationsIn(content: string): { kind: ClaimEdgeKind; claimId: string }[] {
  return [...content.matchAll(CITATION_PATTERN)].map((match) => ({
    kind: (match[1] ?? '').toLowerCase().startsWith('support') ? 'supports' : 'rebuts',
    claimId: (match[2] ?? '').toLowerCase(),
  }));
}

/**
 * Builds the argument graph of one attempt's claims (in the order spoken) and the votes on them. Edges:
 * - a rebuttal of round r by X whose target is Y rebuts Y's claim of round r − 1 (the claim X was shown);
 * - each claim a turn cites rebuts or supports it, if the cited claim is one of an earlier round of these
 *   claims (a model may cite an id it made up, or one of its own round).
 * Never an edge from a claim to itself, each (from, to, kind) once. Votes on claims not listed (those of an
 * earlier attempt) are left out; a claim without votes weighs 0.
 */
export function buildArgumentGraph(spoken: SpokenClaim[], votes: Record<string, VoteCounts>): ClaimGraph {
  const claims: SpokenClaim[] = [];
  const byId = new Map<string, SpokenClaim>();
  for (const claim of spoken) {
    // A claim is one message: should an event have been stored twice, the first one stands.
    if (byId.has(claim.claimId)) continue;
    byId.set(claim.claimId, claim);
    claims.push(claim);
  }
  const byRoundAndAgent = new Map(claims.map((claim) => [`${claim.round}\u0000${claim.agent}`, claim]));

  const edges: ClaimEdge[] = [];
  const seen = new Set<string>();
  const add = (from: SpokenClaim, to: SpokenClaim | undefined, kind: ClaimEdgeKind) => {
    if (!to || to.claimId === from.claimId) return;
    const key = `${from.claimId} ${to.claimId} ${kind}`;
    if (seen.has(key)) return;
    seen.add(key);
    edges.push({ from: from.claimId, to: to.claimId, kind });
  };

  for (const claim of claims) {
    if (claim.targetAgent !== null) {
      add(claim, byRoundAndAgent.get(`${claim.round - 1}\u0000${claim.targetAgent}`), 'rebuts');
    }
    for (const cited of citationsIn(claim.content)) {
      const target = byId.get(cited.claimId);
      if (target && target.round < claim.round) add(claim, target, cited.kind);
    }
  }

  return {
    claims: claims.map((claim) => {
      const { agree = 0, disagree = 0 } = votes[claim.claimId] ?? {};
      return { ...claim, weight: { agree, disagree, net: agree - disagree } };
    }),
    edges,
  };
}
