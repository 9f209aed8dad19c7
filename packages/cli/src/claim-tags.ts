/**
 * Claim tags as debaters write them, `[rebuts a1-r1-cfo]` / `[supports a1-r2-risk-analyst]` (the API's
 * CITATION_PATTERN: either word in any case, singular or not, a colon or not). Group 1 the kind, 2 the round,
 * 3 the agent's slug.
 */
const CLAIM_TAG = /\[\s*(supports?|rebuts?)\s*:?\s*a\d+-r(\d+)-([a-z0-9-]{1,100})\s*\]/gi;

/** The slug a claimId names an agent by: lower case, anything else a hyphen (as the API makes it). */
const slugOf = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '-');

/**
 * A turn's text as a person reads it in a terminal: each claim tag written out as what it says,
 * "(rebuts CFO, round 1)", with the agent's name from the panel (its slug when the panel does not know it).
 * Passage tags such as [E3] stay: the verdict's Sources list them by that id.
 */
export function readableClaimTags(text: string, panel: readonly string[]): string {
  const names = new Map(panel.map((name) => [slugOf(name), name]));
  return text.replace(CLAIM_TAG, (_tag, kind: string, round: string, slug: string) => {
    const verb = kind.toLowerCase().startsWith('rebut') ? 'rebuts' : 'supports';
    return `(${verb} ${names.get(slug.toLowerCase()) ?? slug.toLowerCase()}, round ${round})`;
  });
}
