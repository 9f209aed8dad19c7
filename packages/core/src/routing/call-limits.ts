/**
 * The bounds of each LLM call a debate makes: the engine asks with these limits (runner/round.ts, judge.ts,
 * classify.ts) and the cost estimate counts with the same ones, so the estimate's ceiling is the engine's.
 */
export const DEBATE_CALL_LIMITS = {
  /** One turn of one seat in one round. */
  debater: { maxOutputTokens: 600 },
  /** The verdict: asked again while the judge answers something that is not one, at most `attempts` times. */
  judge: { maxOutputTokens: 2000, attempts: 3 },
  /** The question's subject area, one word; once per completed debate. */
  classifier: { maxOutputTokens: 8 },
} as const;
