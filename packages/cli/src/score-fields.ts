import type { DecisionScore } from '@verdict/sdk';

export const NO_RESOLVED_OUTCOMES = 'no resolved outcomes yet';

/**
 * What `verdict score` prints, each figure named for what it is. The API's `accuracyPercentage` is
 * 100 × (1 − Brier score), not the share of verdicts that came true (one wrong verdict at 50% confidence
 * makes it 75), so it is shown as "1 - Brier". With nothing resolved the API's figures are placeholders
 * (Brier 0.5), and none is shown.
 */
export function scoreFields(score: DecisionScore): [label: string, value: string][] {
  const resolved: [string, string] = ['resolved', `${score.totalResolved} of ${score.totalTracked} tracked`];
  if (score.totalResolved === 0) {
    return [
      resolved,
      ['Brier score', NO_RESOLVED_OUTCOMES],
      ['1 - Brier', NO_RESOLVED_OUTCOMES],
      ['correct streak', String(score.streak)],
    ];
  }
  const rows: [string, string][] = [
    resolved,
    ['Brier score', `${score.brierScore.toFixed(3)} (0 best, 1 worst)`],
    ['1 - Brier', `${score.accuracyPercentage.toFixed(1)}% (not the share of verdicts that came true)`],
    ['correct streak', String(score.streak)],
  ];
  const domains = Object.entries(score.domainScores).sort(([a], [b]) => a.localeCompare(b));
  if (domains.length > 0)
    rows.push(['Brier score by domain', domains.map(([d, brier]) => `${d} ${brier.toFixed(3)}`).join(', ')]);
  return rows;
}
