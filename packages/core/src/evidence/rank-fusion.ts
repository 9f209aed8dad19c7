/** A passage in a ranking, best first, with the length of its text (what it costs of the budget). */
export type RankedPassage = { number: number; length: number };

/**
 * Reciprocal rank fusion's constant: a passage's score is Σ 1 / (k + rank) over the rankings it is in.
 * 60 is the value of the method's paper (Cormack et al., 2009); it keeps one ranking's top from drowning
 * what both rankings place well.
 */
export const RRF_K = 60;

/**
 * Several rankings of the same passages as one, by reciprocal rank fusion: no scores to calibrate
 * between full-text rank and cosine similarity, only positions. Ties go to the lower number (earlier in
 * the corpus), so the order is the same on every database.
 */
export function fuseRankings(rankings: readonly (readonly RankedPassage[])[], k = RRF_K): RankedPassage[] {
  const fused = new Map<number, { passage: RankedPassage; score: number }>();
  for (const ranking of rankings) {
    ranking.forEach((passage, index) => {
      const entry = fused.get(passage.number) ?? { passage, score: 0 };
      entry.score += 1 / (k + index + 1);
      fused.set(passage.number, entry);
    });
  }
  return [...fused.values()]
    .sort((a, b) => b.score - a.score || a.passage.number - b.passage.number)
    .map((entry) => entry.passage);
}

/**
 * The best passages, in rank order, whose texts fit in `budget` characters together, `limit` at most: one
 * too long for what is left is passed over for the next that fits.
 */
export function fillBudget(ranked: readonly RankedPassage[], budget: number, limit: number): number[] {
  const chosen: number[] = [];
  let left = budget;
  for (const passage of ranked) {
    if (chosen.length >= limit) break;
    if (passage.length > left) continue;
    chosen.push(passage.number);
    left -= passage.length;
  }
  return chosen;
}
