/**
 * The tags debaters write in their turns, without zod: what the engine reads turns with and what the
 * console's pages render as links, importable on their own (`@verdict/contracts/tags`) so a page that only
 * shows turns does not load every schema.
 */

/**
 * The tag a debater writes to cite an earlier claim, `[supports a1-r1-risk-analyst]` or
 * `[rebuts a1-r1-cfo]`: the debater prompt asks for it and the argument graph reads it back.
 */
export const citationTag = (kind: 'rebuts' | 'supports', claimId: string) => `[${kind} ${claimId}]`;

/**
 * Citation tags as models actually write them: either word in any case, singular or not ("support"), a
 * colon or not, spaces inside the brackets. Group 1 is the kind, group 2 the claimId (to be lower-cased and
 * checked against the debate's claims: a model may cite what does not exist).
 */
export const CITATION_PATTERN = /\[\s*(supports?|rebuts?)\s*:?\s*(a\d+-r\d+-[a-z0-9-]{1,100})\s*\]/gi;

/**
 * An inline citation of a passage as debaters write it, `[E3]`, with the words it quotes when a quoted span
 * stands right before it: `"churn doubled" [E3]`. Group 1 is the quote (straight quotes), group 2 the same
 * in curly quotes, group 3 the passage's number.
 */
export const EVIDENCE_CITATION_PATTERN =
  /(?:"([^"\n]{1,600})"|\u201c([^\u201d\n]{1,600})\u201d)?\s*\[E([1-9][0-9]{0,5})\]/g;

/** How a debater cites a passage, as the debater prompt asks for it and the pattern reads it back. */
export const evidenceTag = (evidenceId: string) => `[${evidenceId}]`;
