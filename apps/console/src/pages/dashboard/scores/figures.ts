import type { Schemas } from '../../../lib/api.ts';

type Score = Schemas['DecisionScore'];

/** One headline figure: its name, its value ('—' while nothing is resolved) and a short note. */
export type Figure = { label: string; value: string; note?: string };

/**
 * The page's headline figures, each named for what it is. The API's `accuracyPercentage` is
 * 100 × (1 − Brier score), not the share of verdicts that came true, so it is shown as "1 − Brier". With
 * nothing resolved the API's Brier 0.5 and 50 % are placeholders: '—' stands in for them.
 */
export function headlineFigures(score: Score): Figure[] {
  const none = score.totalResolved === 0;
  return [
    { label: '1 − Brier', value: none ? '—' : `${score.accuracyPercentage.toFixed(1)}%` },
    {
      label: 'Brier score',
      value: none ? '—' : score.brierScore.toFixed(3),
      note: none ? 'no resolved outcomes yet' : '0 best, 1 worst',
    },
    { label: 'Resolved', value: String(score.totalResolved), note: `of ${score.totalTracked} tracked` },
    { label: 'Correct streak', value: String(score.streak) },
  ];
}

/** What a screen reader hears when a new read changed the score. */
export const scoreAnnouncement = (score: Score) =>
  score.totalResolved === 0
    ? 'Score updated: no resolved outcomes yet.'
    : `Score updated: Brier score ${score.brierScore.toFixed(3)}, 1 − Brier ${score.accuracyPercentage.toFixed(1)}%.`;
