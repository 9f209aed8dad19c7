import type { TurnPosition } from '@verdict/contracts';

/**
 * How far a round's stated positions agree, 0 (nobody agrees) to 1 (all agree): ARCHITECTURE.md,
 * "Convergence". Pure, so the machine computes it in an action and a restored debate computes it again the
 * same. Over the agents that spoke in the round; a turn with no readable position (null) agrees with nobody
 * and still counts, so silence never looks like consensus. Fewer than two speakers: 0 (nothing to agree).
 *
 * - A comparison (`ranked`): the mean, over every pair of speakers, of (1 + τ) / 2, τ being Kendall's tau
 *   between the two rankings over the options either named (an option a ranking leaves out is tied last in
 *   it; tied pairs count neither way). A pair with an unknown ranking scores 0.
 * - Otherwise: 0.7 × recommendation agreement + 0.3 × stance agreement. Recommendation agreement is the
 *   weight of the agents behind the most-backed recommendation over the weight of all, an agent weighing
 *   0.5 + confidence / 2 (0.75 when it stated no confidence; an unknown recommendation weighs 1 and backs
 *   none): a doubtful dissenter splits the panel less than a sure one. Stance agreement is the share of
 *   speakers on the most common stance (unknown stances on none).
 */
export function convergenceOf(positions: readonly (TurnPosition | null)[], ranked: boolean): number {
  if (positions.length < 2) return 0;
  const score = ranked ? rankingAgreement(positions) : recommendationAgreement(positions);
  // Rounded so the event, the verdict's series and a comparison with the threshold see the same number.
  return Math.round(Math.min(1, Math.max(0, score)) * 1e4) / 1e4;
}

export const RECOMMENDATION_WEIGHT = 0.7;
const STANCE_WEIGHT = 1 - RECOMMENDATION_WEIGHT;

/** An agent's say in the recommendation share: 0.5 (no confidence) to 1 (certain). */
const weightOf = (position: TurnPosition | null) =>
  position?.recommendation === undefined ? 1 : 0.5 + (position.confidence ?? 0.5) / 2;

function recommendationAgreement(positions: readonly (TurnPosition | null)[]): number {
  const backing = new Map<string, number>();
  let total = 0;
  for (const position of positions) {
    const weight = weightOf(position);
    total += weight;
    if (position?.recommendation)
      backing.set(position.recommendation, (backing.get(position.recommendation) ?? 0) + weight);
  }
  const recommendation = Math.max(0, ...backing.values()) / total;
  const stances = new Map<string, number>();
  for (const position of positions)
    if (position?.stance) stances.set(position.stance, (stances.get(position.stance) ?? 0) + 1);
  const stance = Math.max(0, ...stances.values()) / positions.length;
  return RECOMMENDATION_WEIGHT * recommendation + STANCE_WEIGHT * stance;
}

function rankingAgreement(positions: readonly (TurnPosition | null)[]): number {
  let sum = 0;
  let pairs = 0;
  for (let i = 0; i < positions.length; i++) {
    for (let j = i + 1; j < positions.length; j++) {
      const a = positions[i]?.ranking;
      const b = positions[j]?.ranking;
      sum += a && b ? (1 + kendallTau(a, b)) / 2 : 0;
      pairs++;
    }
  }
  return sum / pairs;
}

/**
 * Kendall's tau-a between two rankings (best first) over the options either names: +1 same order, −1
 * reversed. An option one ranking leaves out is tied below all it names; a pair tied in either counts 0.
 * One option or none: +1 (nothing to disagree on).
 */
export function kendallTau(a: readonly string[], b: readonly string[]): number {
  const options = [...new Set([...a, ...b])];
  if (options.length < 2) return 1;
  const place = (ranking: readonly string[], option: string) => {
    const at = ranking.indexOf(option);
    return at === -1 ? ranking.length : at;
  };
  let net = 0;
  let pairs = 0;
  for (let i = 0; i < options.length; i++) {
    for (let j = i + 1; j < options.length; j++) {
      const x = options[i] as string;
      const y = options[j] as string;
      net += Math.sign(place(a, x) - place(a, y)) * Math.sign(place(b, x) - place(b, y));
      pairs++;
    }
  }
  return net / pairs;
}
