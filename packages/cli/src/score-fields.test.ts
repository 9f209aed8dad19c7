import { describe, expect, it } from 'vitest';
import { scoreFields } from './score-fields.ts';

const score = (fields: Partial<Parameters<typeof scoreFields>[0]> = {}) => ({
  brierScore: 0.5,
  totalTracked: 2,
  totalResolved: 0,
  domainScores: {},
  accuracyPercentage: 50,
  streak: 0,
  ...fields,
});

describe('the score’s figures', () => {
  it('says there are no resolved outcomes instead of the placeholder Brier 0.5 and 50%', () => {
    const rows = scoreFields(score());
    expect(rows).toEqual([
      ['resolved', '0 of 2 tracked'],
      ['Brier score', 'no resolved outcomes yet'],
      ['1 - Brier', 'no resolved outcomes yet'],
      ['correct streak', '0'],
    ]);
    expect(rows.flat().join(' ')).not.toMatch(/50|0\.5/);
  });

  it('names 1 − Brier for what it is after one wrong verdict, never as accuracy', () => {
    const rows = scoreFields(
      score({
        totalResolved: 1,
        brierScore: 0.25,
        accuracyPercentage: 75,
        domainScores: { technology: 0.25, business: 0.1 },
      }),
    );
    expect(rows).toEqual([
      ['resolved', '1 of 2 tracked'],
      ['Brier score', '0.250 (0 best, 1 worst)'],
      ['1 - Brier', '75.0% (not the share of verdicts that came true)'],
      ['correct streak', '0'],
      ['Brier score by domain', 'business 0.100, technology 0.250'],
    ]);
    expect(rows.flat().join(' ')).not.toMatch(/accuracy/i);
  });
});
