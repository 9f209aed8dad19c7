/** A claim of the debate as a reader knows it: who spoke it, in which round. */
export type KnownClaim = { claimId: string; agent: string; round: number };

/**
 * How a page names a claim a tag points at: "CFO, round 1" from the turn that made it, or, for a claimId no
 * turn of the page made (a model may cite what does not exist), the agent and round the id spells.
 *
 * @example
 * claimLabel('a1-r1-cfo', [{ claimId: 'a1-r1-cfo', agent: 'CFO', round: 1 }]) // { text: 'CFO, round 1', known: true }
 */
export function claimLabel(claimId: string, claims: readonly KnownClaim[]): { text: string; known: boolean } {
  const claim = claims.find((c) => c.claimId === claimId);
  if (claim) return { text: `${claim.agent}, round ${claim.round}`, known: true };
  const spelled = /^a\d+-r(\d+)-(.+)$/.exec(claimId);
  return { text: spelled ? `${spelled[2]}, round ${spelled[1]}` : claimId, known: false };
}
