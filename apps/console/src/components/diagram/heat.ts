/** One step of the vote colour scale: a CSS class suffix, its words, and the agree share it covers. */
export type HeatLevel = { id: string; label: string; range: string };

export const NO_VOTES: HeatLevel = { id: 'none', label: 'no votes yet', range: 'no votes' };

/** From most disagreed to most agreed; each level's colour is in styles.css (.heat-<id>). */
export const HEAT_LEVELS: HeatLevel[] = [
  { id: 'against', label: 'mostly disagree', range: 'under 20% agree' },
  { id: 'leans-against', label: 'leans disagree', range: '20–40% agree' },
  { id: 'split', label: 'split', range: '40–60% agree' },
  { id: 'leans-for', label: 'leans agree', range: '60–80% agree' },
  { id: 'for', label: 'mostly agree', range: '80% agree or more' },
];

export type Tally = { agree: number; disagree: number };

/** The level of a claim's votes: its share of agree votes, in fifths. */
export function heatOf(tally: Tally | undefined): HeatLevel {
  const total = (tally?.agree ?? 0) + (tally?.disagree ?? 0);
  if (!tally || total === 0) return NO_VOTES;
  const share = tally.agree / total;
  const index = Math.min(HEAT_LEVELS.length - 1, Math.floor(share * HEAT_LEVELS.length));
  return HEAT_LEVELS[index] ?? NO_VOTES;
}
