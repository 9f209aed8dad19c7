import type { DebateDomain } from '@verdict/contracts';
import { describe, expect, it } from 'vitest';
import { OBSERVED } from '../score-math.ts';
import {
  CALIBRATION_RULES,
  type CalibrationSample,
  calibrate,
  fitGlobalCurve,
  fitOwnerCalibration,
} from './calibration-model.ts';
import {
  calibrated,
  overconfident,
  type Reliability,
  seededRandom,
  simulateHistory,
  underconfident,
} from './simulated-histories.ts';

/** Seeds per scenario: every figure below is the same on every run (the histories are seeded). */
const SEEDS = 30;
const HELD_OUT = 400;

const brier = (samples: readonly CalibrationSample[], predict: (s: CalibrationSample) => number) =>
  samples.reduce((sum, s) => sum + (predict(s) - OBSERVED[s.status]) ** 2, 0) / samples.length;

type Scenario = {
  /** Other owners' outcomes (the global prior's): judges that are well calibrated. */
  others: number;
  /** The owner's resolved history, fitted on. */
  history: (random: () => number) => CalibrationSample[];
  /** The owner's next verdicts, scored but never fitted on. */
  next: (random: () => number) => CalibrationSample[];
  /** How often a verdict of this confidence (and domain) truly comes true: the oracle. */
  truth: (confidence: number, domain: DebateDomain) => number;
};

/**
 * Mean Brier differences over the seeds on the held-out verdicts: calibrated − raw (negative is better),
 * the worst seed's, and the oracle's (the true curve's) − raw, the most any calibration could gain.
 */
function heldOut(scenario: Scenario, only?: (s: CalibrationSample) => boolean) {
  const gains: number[] = [];
  const oracleGains: number[] = [];
  for (let seed = 1; seed <= SEEDS; seed++) {
    const random = seededRandom(seed);
    const others = simulateHistory({ random, count: scenario.others, reliability: calibrated });
    const history = scenario.history(random);
    const next = scenario.next(random).filter(only ?? (() => true));
    const model = fitOwnerCalibration(history, fitGlobalCurve([...others, ...history]));
    const raw = brier(next, (s) => s.confidence);
    gains.push(
      brier(next, (s) => calibrate(model, s.confidence, s.domain)?.calibratedConfidence ?? s.confidence) -
        raw,
    );
    // Partially correct outcomes are 0.5 whatever the curve: the oracle predicts their share too.
    oracleGains.push(brier(next, (s) => 0.1 * 0.5 + 0.9 * scenario.truth(s.confidence, s.domain)) - raw);
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  return { mean: mean(gains), worst: Math.max(...gains), oracle: mean(oracleGains) };
}

const steady = (reliability: Reliability, count: number, domains?: DebateDomain[]): Scenario => ({
  others: 400,
  history: (random) =>
    simulateHistory({ random, count, reliability, startDay: 300 - count, ...(domains ? { domains } : {}) }),
  next: (random) =>
    simulateHistory({ random, count: HELD_OUT, reliability, startDay: 300, ...(domains ? { domains } : {}) }),
  truth: reliability,
});

describe('calibrated confidence, on simulated outcome histories held out from the fit', () => {
  it('is not applied below the minimum of resolved outcomes', () => {
    const random = seededRandom(1);
    const few = simulateHistory({
      random,
      count: CALIBRATION_RULES.minimumForOwner - 1,
      reliability: overconfident,
    });
    expect(fitOwnerCalibration(few, fitGlobalCurve(few))).toBeNull();
    expect(calibrate(null, 0.9, 'business')).toBeNull();
  });

  it('an overconfident judge: 60 outcomes recover most of what the true curve would gain, on every seed', () => {
    const { mean, worst, oracle } = heldOut(steady(overconfident, 60));
    expect(mean).toBeLessThan(-0.008);
    expect(mean / oracle).toBeGreaterThan(0.6);
    expect(worst).toBeLessThan(0);
  });

  it('an underconfident judge: 150 outcomes gain on average', () => {
    const { mean, oracle } = heldOut(steady(underconfident, 150));
    expect(mean).toBeLessThan(-0.002);
    expect(mean / oracle).toBeGreaterThan(0.4);
  });

  it('a well-calibrated judge: never worse than the raw confidence by more than a small tolerance', () => {
    for (const count of [30, 60, 150]) {
      const { mean, worst } = heldOut(steady(calibrated, count));
      expect(mean, `${count} outcomes`).toBeLessThan(0.001);
      expect(worst, `${count} outcomes`).toBeLessThan(0.008);
    }
  });

  it('a judge overconfident in one domain only: that domain gains, the other is not made worse', () => {
    const byDomain = (c: number, d: DebateDomain) => (d === 'business' ? overconfident(c) : c);
    const scenario: Scenario = {
      ...steady(byDomain as Reliability, 100, ['business', 'technology']),
      truth: byDomain,
    };
    const business = heldOut(scenario, (s) => s.domain === 'business');
    const technology = heldOut(scenario, (s) => s.domain === 'technology');
    expect(business.mean).toBeLessThan(-0.007);
    expect(technology.mean).toBeLessThan(0.002);
  });

  it('a judge that drifted from calibrated to overconfident: recent outcomes weigh more, and the drift is caught', () => {
    const drifted: Scenario = {
      others: 400,
      history: (random) => [
        ...simulateHistory({ random, count: 200, reliability: calibrated, startDay: 0 }),
        ...simulateHistory({ random, count: 60, reliability: overconfident, startDay: 200 }),
      ],
      next: (random) =>
        simulateHistory({ random, count: HELD_OUT, reliability: overconfident, startDay: 260 }),
      truth: overconfident,
    };
    const { mean, worst } = heldOut(drifted);
    expect(mean).toBeLessThan(-0.007);
    expect(worst).toBeLessThan(0);
  });

  it('says how it was made: the domain curve where the domain has enough outcomes, the owner curve otherwise', () => {
    const random = seededRandom(7);
    const history = [
      ...simulateHistory({ random, count: 40, reliability: overconfident, domains: ['business'] }),
      ...simulateHistory({ random, count: 5, reliability: overconfident, domains: ['legal'] }),
    ];
    const model = fitOwnerCalibration(history, fitGlobalCurve(history));
    const inBusiness = calibrate(model, 0.9, 'business');
    expect(inBusiness?.calibration).toEqual({ method: 'platt-shrinkage', basedOn: 40, scope: 'domain' });
    expect(inBusiness?.calibratedConfidence).toBeLessThan(0.9);
    expect(calibrate(model, 0.9, 'legal')?.calibration).toEqual({
      method: 'platt-shrinkage',
      basedOn: 45,
      scope: 'owner',
    });
    expect(calibrate(model, 0.9, null)?.calibration.scope).toBe('owner');
  });
});
