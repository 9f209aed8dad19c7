import { describe, expect, it } from 'vitest';
import { headlineFigures, scoreAnnouncement } from './figures.ts';

const score = {
  brierScore: 0.5,
  totalTracked: 2,
  totalResolved: 0,
  domainScores: {},
  accuracyPercentage: 50,
  streak: 0,
};

describe('the decision score’s headline figures', () => {
  it('shows no Brier score or percentage before an outcome is resolved, and says why', () => {
    const figures = headlineFigures(score);
    expect(figures.slice(0, 2)).toEqual([
      { label: '1 − Brier', value: '—' },
      { label: 'Brier score', value: '—', note: 'no resolved outcomes yet' },
    ]);
    expect(JSON.stringify(figures)).not.toMatch(/50|0\.5/);
    expect(scoreAnnouncement(score)).toBe('Score updated: no resolved outcomes yet.');
  });

  it('calls 75 % after one wrong verdict 1 − Brier, next to the Brier score, never accuracy', () => {
    const wrong = { ...score, totalResolved: 1, totalTracked: 1, brierScore: 0.25, accuracyPercentage: 75 };
    expect(headlineFigures(wrong)).toEqual([
      { label: '1 − Brier', value: '75.0%' },
      { label: 'Brier score', value: '0.250', note: '0 best, 1 worst' },
      { label: 'Resolved', value: '1', note: 'of 1 tracked' },
      { label: 'Correct streak', value: '0' },
    ]);
    expect(scoreAnnouncement(wrong)).toBe('Score updated: Brier score 0.250, 1 − Brier 75.0%.');
    expect(JSON.stringify(headlineFigures(wrong))).not.toMatch(/accuracy/i);
  });
});
