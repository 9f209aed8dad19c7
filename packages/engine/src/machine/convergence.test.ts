import type { TurnPosition } from '@verdict/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { convergenceOf, kendallTau } from './convergence.ts';

const RECOMMENDATIONS = ['PROCEED', 'RECONSIDER', 'REJECT', 'DEFER', 'MORE_INFO_NEEDED'] as const;
const STANCES = ['for', 'against', 'mixed'] as const;

const stated: fc.Arbitrary<TurnPosition> = fc.record(
  {
    recommendation: fc.constantFrom(...RECOMMENDATIONS),
    stance: fc.constantFrom(...STANCES),
    confidence: fc.double({ min: 0, max: 1, noNaN: true }),
  },
  { requiredKeys: [] },
);
const position = fc.option(stated, { nil: null });
const panel = fc.array(position, { minLength: 0, maxLength: 9 });
const LETTERS = ['A', 'B', 'C', 'D', 'E'];
const ranking = fc.shuffledSubarray(LETTERS, { minLength: 1 });
const rankedPanel = fc.array(
  fc.option(
    ranking.map((r) => ({ ranking: r })),
    { nil: null },
  ),
  { maxLength: 7 },
);

describe('the convergence of a round', () => {
  it('scores a unanimous panel 1 and a split one far lower', () => {
    const agree = { recommendation: 'PROCEED', stance: 'for', confidence: 0.8 } as const;
    expect(convergenceOf([agree, agree, agree], false)).toBe(1);
    const split = [agree, { recommendation: 'REJECT', stance: 'against', confidence: 0.8 } as const];
    expect(convergenceOf(split, false)).toBe(0.5);
  });

  it('lets a doubtful dissenter split the panel less than a sure one', () => {
    const agree = { recommendation: 'PROCEED', stance: 'for', confidence: 0.9 } as const;
    const doubtful = { recommendation: 'REJECT', stance: 'for', confidence: 0 } as const;
    const sure = { ...doubtful, confidence: 1 };
    // 0.7 × 0.95·2 / (0.95·2 + 0.5) + 0.3 × 1, against the same with the dissenter weighing 1.
    expect(convergenceOf([agree, agree, doubtful], false)).toBeCloseTo(0.7 * (1.9 / 2.4) + 0.3, 4);
    expect(convergenceOf([agree, agree, sure], false)).toBeCloseTo(0.7 * (1.9 / 2.9) + 0.3, 4);
  });

  it('counts a turn without a position against agreement, never for it', () => {
    const agree = { recommendation: 'DEFER', stance: 'mixed' } as const;
    expect(convergenceOf([agree, agree, null], false)).toBeLessThan(convergenceOf([agree, agree], false));
    expect(convergenceOf([null, null, null], false)).toBe(0);
  });

  it('has nothing to measure with fewer than two speakers', () => {
    expect(convergenceOf([], false)).toBe(0);
    expect(convergenceOf([{ recommendation: 'PROCEED', stance: 'for' }], false)).toBe(0);
  });

  it('maps rankings through Kendall tau: same order 1, reversed 0, one swap of three in between', () => {
    expect(convergenceOf([{ ranking: ['A', 'B', 'C'] }, { ranking: ['A', 'B', 'C'] }], true)).toBe(1);
    expect(convergenceOf([{ ranking: ['A', 'B', 'C'] }, { ranking: ['C', 'B', 'A'] }], true)).toBe(0);
    // tau = (2 − 1) / 3 → (1 + 1/3) / 2
    expect(convergenceOf([{ ranking: ['A', 'B', 'C'] }, { ranking: ['B', 'A', 'C'] }], true)).toBeCloseTo(
      2 / 3,
      4,
    );
    expect(convergenceOf([{ ranking: ['A', 'B'] }, null], true)).toBe(0);
  });

  it('stays within 0–1 and ignores the order agents spoke in (property)', () => {
    fc.assert(
      fc.property(panel, fc.boolean(), (positions, ranked) => {
        const score = convergenceOf(positions, ranked);
        expect(score).toBeGreaterThanOrEqual(0);
        expect(score).toBeLessThanOrEqual(1);
        expect(convergenceOf([...positions].reverse(), ranked)).toBe(score);
      }),
    );
    fc.assert(
      fc.property(rankedPanel, (positions) => {
        const score = convergenceOf(positions, true);
        expect(score).toBeGreaterThanOrEqual(0);
        expect(score).toBeLessThanOrEqual(1);
        expect(convergenceOf([...positions].reverse(), true)).toBe(score);
      }),
    );
  });

  it('is 1 whenever two or more agents state the same position, whatever their confidence (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...RECOMMENDATIONS),
        fc.constantFrom(...STANCES),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 2, maxLength: 8 }),
        (recommendation, stance, confidences) => {
          const positions = confidences.map((confidence) => ({ recommendation, stance, confidence }));
          expect(convergenceOf(positions, false)).toBe(1);
        },
      ),
    );
    fc.assert(
      fc.property(ranking, fc.integer({ min: 2, max: 7 }), (order, count) => {
        expect(
          convergenceOf(
            Array.from({ length: count }, () => ({ ranking: order })),
            true,
          ),
        ).toBe(1);
      }),
    );
  });

  it('never rises when one more agent joins without a position (property)', () => {
    fc.assert(
      fc.property(panel, fc.boolean(), (positions, ranked) => {
        fc.pre(positions.length >= 2);
        expect(convergenceOf([...positions, null], ranked)).toBeLessThanOrEqual(
          convergenceOf(positions, ranked),
        );
      }),
    );
  });

  it('never falls when a dissenter comes round to the most-backed recommendation and stance (property)', () => {
    fc.assert(
      fc.property(fc.array(stated, { minLength: 2, maxLength: 8 }), (positions) => {
        const first = positions[0] as TurnPosition;
        fc.pre(first.recommendation !== undefined && first.stance !== undefined);
        const agreeing = positions.map((p) => ({
          ...p,
          recommendation: first.recommendation,
          stance: first.stance,
        }));
        expect(convergenceOf(agreeing, false)).toBeGreaterThanOrEqual(convergenceOf(positions, false));
      }),
    );
  });
});

describe("Kendall's tau", () => {
  it('is symmetric, within −1..1, +1 with itself and −1 with its reverse (property)', () => {
    fc.assert(
      fc.property(ranking, ranking, (a, b) => {
        const tau = kendallTau(a, b);
        expect(tau).toBeGreaterThanOrEqual(-1);
        expect(tau).toBeLessThanOrEqual(1);
        expect(kendallTau(b, a)).toBe(tau);
        expect(kendallTau(a, a)).toBe(1);
        if (a.length >= 2) expect(kendallTau(a, [...a].reverse())).toBe(-1);
      }),
    );
  });
});
