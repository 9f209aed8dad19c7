import { DebateDomain, type ResolvedOutcome } from '@verdict/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  brierOf,
  CALIBRATION_MINIMUM,
  calibration,
  type DayTotals,
  DOMAIN_TREND_MARGIN,
  DOMAIN_TREND_MINIMUM,
  dailyTotals,
  decisionScore,
  domainAccuracies,
  OBSERVED,
  type ResolvedSample,
  ROLLING_DAYS,
  trend,
  UNRESOLVED_BRIER,
} from './score-math.ts';

// ---------------------------------------------------------------------------------------------------------
// Reference implementations, written from the rules (plain loops, calendar arithmetic via Date.UTC).
// They return unrounded numbers; the module's rounded figures are checked against them below.
// ---------------------------------------------------------------------------------------------------------

const DOMAINS: readonly DebateDomain[] = DebateDomain.options;
const STATUSES: readonly ResolvedOutcome[] = ['correct', 'partially_correct', 'wrong'];

const observedOf = (status: ResolvedOutcome): number => {
  if (status === 'correct') return 1;
  if (status === 'partially_correct') return 0.5;
  return 0;
};

const refBrier = (s: { status: ResolvedOutcome; confidence: number }) => {
  const diff = s.confidence - observedOf(s.status);
  return diff * diff;
};

const average = (values: readonly number[]) => {
  let total = 0;
  for (const v of values) total += v;
  return total / values.length;
};

const pad = (n: number, width: number) => String(n).padStart(width, '0');
/** 'YYYY-MM-DD' of a UTC calendar date; month is 0-based, day may overflow (Date.UTC normalises it). */
const ymd = (year: number, month: number, day: number) => {
  const d = new Date(Date.UTC(year, month, day));
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}`;
};
const utcDayOfMs = (ms: number) => {
  const d = new Date(ms);
  return ymd(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
};
/** The day `offset` calendar days after (negative: before) the 'YYYY-MM-DD' `day`. */
const shiftDay = (day: string, offset: number) => {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return ymd(y, m - 1, d + offset);
};
const sampleDay = (s: ResolvedSample) => s.resolvedAt.slice(0, 10);

type RefScore = {
  brierScore: number;
  totalTracked: number;
  totalResolved: number;
  domainScores: Record<string, number>;
  accuracyPercentage: number;
  streak: number;
};

function refDecisionScore(samples: readonly ResolvedSample[], totalTracked: number): RefScore {
  const briers: number[] = [];
  for (const s of samples) briers.push(refBrier(s));
  const brierScore = samples.length === 0 ? 0.5 : average(briers);
  let streak = 0;
  for (let i = samples.length - 1; i >= 0; i--) {
    if (samples[i]!.status !== 'correct') break;
    streak++;
  }
  const domainScores: Record<string, number> = {};
  for (const domain of DOMAINS) {
    const mine: number[] = [];
    for (const s of samples) if (s.domain === domain) mine.push(refBrier(s));
    if (mine.length > 0) domainScores[domain] = average(mine);
  }
  return {
    brierScore,
    totalTracked,
    totalResolved: samples.length,
    domainScores,
    accuracyPercentage: (1 - brierScore) * 100,
    streak,
  };
}

type RefBucket = { predictedRange: [number, number]; actualRate: number; count: number };

function refCalibration(samples: readonly ResolvedSample[]): RefBucket[] {
  if (samples.length < 5) return [];
  const buckets: RefBucket[] = [];
  for (let i = 0; i < 10; i++) {
    const low = i / 10;
    const high = (i + 1) / 10;
    const observed: number[] = [];
    for (const s of samples) {
      const inside = s.confidence >= low && (s.confidence < high || (i === 9 && s.confidence === 1));
      if (inside) observed.push(observedOf(s.status));
    }
    if (observed.length > 0)
      buckets.push({ predictedRange: [low, high], actualRate: average(observed), count: observed.length });
  }
  return buckets;
}

function refDailyTotals(samples: readonly ResolvedSample[]): DayTotals[] {
  const days: string[] = [];
  for (const s of samples) if (!days.includes(sampleDay(s))) days.push(sampleDay(s));
  days.sort();
  const result: DayTotals[] = [];
  for (const day of days) {
    let count = 0;
    let brierSum = 0;
    for (const s of samples) {
      if (sampleDay(s) !== day) continue;
      count++;
      brierSum += refBrier(s);
    }
    result.push({ day, count, brierSum });
  }
  return result;
}

type RefPoint = { date: string; brierScore: number; rollingAccuracy: number; sampleSize: number };

function refTrend(samples: readonly ResolvedSample[], days: number, nowMs: number): RefPoint[] {
  if (samples.length === 0) return [];
  const today = utcDayOfMs(nowMs);
  const points: RefPoint[] = [];
  for (let back = days - 1; back >= 0; back--) {
    const d = shiftDay(today, -back);
    const windowStart = shiftDay(d, -29);
    let cumulativeCount = 0;
    let cumulativeSum = 0;
    let windowCount = 0;
    let windowSum = 0;
    for (const s of samples) {
      const sd = sampleDay(s);
      if (sd > d) continue;
      cumulativeCount++;
      cumulativeSum += refBrier(s);
      if (sd >= windowStart) {
        windowCount++;
        windowSum += refBrier(s);
      }
    }
    if (cumulativeCount === 0) continue;
    const cumulative = cumulativeSum / cumulativeCount;
    const rolling = windowCount === 0 ? cumulative : windowSum / windowCount;
    points.push({
      date: `${d}T00:00:00.000Z`,
      brierScore: cumulative,
      rollingAccuracy: (1 - rolling) * 100,
      sampleSize: windowCount,
    });
  }
  return points;
}

type RefDomain = {
  domain: DebateDomain;
  brierScore: number;
  sampleSize: number;
  trend: 'improving' | 'stable' | 'declining';
};

function refDomainAccuracies(samples: readonly ResolvedSample[]): RefDomain[] {
  const result: RefDomain[] = [];
  for (const domain of DOMAINS) {
    const briers: number[] = [];
    for (const s of samples) if (s.domain === domain) briers.push(refBrier(s));
    if (briers.length === 0) continue;
    let trendOf: RefDomain['trend'] = 'stable';
    if (briers.length >= 4) {
      const half = Math.floor(briers.length / 2);
      const older: number[] = [];
      const newer: number[] = [];
      for (let i = 0; i < half; i++) older.push(briers[i]!);
      for (let i = briers.length - half; i < briers.length; i++) newer.push(briers[i]!);
      const change = average(newer) - average(older);
      if (change < -0.05) trendOf = 'improving';
      else if (change > 0.05) trendOf = 'declining';
    }
    result.push({ domain, brierScore: average(briers), sampleSize: briers.length, trend: trendOf });
  }
  result.sort((a, b) => {
    if (a.sampleSize !== b.sampleSize) return b.sampleSize - a.sampleSize;
    return a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : 0;
  });
  return result;
}

// ---------------------------------------------------------------------------------------------------------
// Comparison helpers: a figure rounded to `decimals` is a multiple of 10^-decimals and within half a unit
// (plus float noise from a different summation order) of the exact value.
// ---------------------------------------------------------------------------------------------------------

const expectRounded = (actual: number, exact: number, decimals: number) => {
  expect(Number(actual.toFixed(decimals))).toBe(actual);
  expect(Math.abs(actual - exact)).toBeLessThanOrEqual(0.5 * 10 ** -decimals + 1e-9);
};

// ---------------------------------------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------------------------------------

const DAY_MS = 86_400_000;
const START_MS = Date.UTC(2026, 0, 1);
const END_MS = Date.UTC(2026, 11, 31, 23, 59, 59, 999);

/** Any double in [0, 1], plus the exact tenths (bucket edges) and both ends. */
const confidenceArb = fc.oneof(
  fc.double({ min: 0, max: 1, noNaN: true }),
  fc.integer({ min: 0, max: 10 }).map((k) => k / 10),
);

const sampleArb = (fromMs: number, toMs: number) =>
  fc.record({
    status: fc.constantFrom(...STATUSES),
    confidence: confidenceArb,
    domain: fc.constantFrom(...DOMAINS),
    ms: fc.integer({ min: fromMs, max: toMs }),
  });

/**
 * Samples in resolution order, resolved within 2026: spread over a few days, a month and a half, or the whole
 * year, so days, rolling windows and domains get several samples as well as few.
 */
const samplesArb = fc
  .constantFrom(3, 45, 365)
  .chain((spanDays) =>
    fc.array(sampleArb(START_MS, Math.min(END_MS, START_MS + spanDays * DAY_MS - 1)), { maxLength: 60 }),
  )
  .map((raw) =>
    [...raw]
      .sort((a, b) => a.ms - b.ms)
      .map(
        (r): ResolvedSample => ({
          status: r.status,
          confidence: r.confidence,
          domain: r.domain,
          resolvedAt: new Date(r.ms).toISOString(),
        }),
      ),
  );

const sample = (
  status: ResolvedOutcome,
  confidence: number,
  resolvedAt = '2026-03-01T12:00:00.000Z',
  domain: DebateDomain = 'business',
): ResolvedSample => ({ status, confidence, domain, resolvedAt });

// ---------------------------------------------------------------------------------------------------------

describe('constants', () => {
  it('match the rules', () => {
    expect(OBSERVED).toEqual({ correct: 1, partially_correct: 0.5, wrong: 0 });
    expect(UNRESOLVED_BRIER).toBe(0.5);
    expect(CALIBRATION_MINIMUM).toBe(5);
    expect(ROLLING_DAYS).toBe(30);
    expect(DOMAIN_TREND_MINIMUM).toBe(4);
    expect(DOMAIN_TREND_MARGIN).toBe(0.05);
  });
});

describe('brierOf', () => {
  it('is (confidence − observed)², within [0, 1]', () => {
    fc.assert(
      fc.property(fc.constantFrom(...STATUSES), confidenceArb, (status, confidence) => {
        const b = brierOf({ status, confidence });
        expect(b).toBe(refBrier({ status, confidence }));
        expect(b).toBeGreaterThanOrEqual(0);
        expect(b).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('scores the corners', () => {
    expect(brierOf({ status: 'correct', confidence: 1 })).toBe(0);
    expect(brierOf({ status: 'wrong', confidence: 1 })).toBe(1);
    expect(brierOf({ status: 'correct', confidence: 0 })).toBe(1);
    expect(brierOf({ status: 'wrong', confidence: 0 })).toBe(0);
    expect(brierOf({ status: 'partially_correct', confidence: 0 })).toBe(0.25);
    expect(brierOf({ status: 'partially_correct', confidence: 0.5 })).toBe(0);
  });
});

describe('decisionScore', () => {
  it('agrees with the reference', () => {
    fc.assert(
      fc.property(samplesArb, fc.nat({ max: 1000 }), (samples, extra) => {
        const totalTracked = samples.length + extra;
        const actual = decisionScore(samples, totalTracked);
        const expected = refDecisionScore(samples, totalTracked);
        expectRounded(actual.brierScore, expected.brierScore, 4);
        expectRounded(actual.accuracyPercentage, expected.accuracyPercentage, 2);
        expect(actual.totalTracked).toBe(totalTracked);
        expect(actual.totalResolved).toBe(samples.length);
        expect(actual.streak).toBe(expected.streak);
        expect(Object.keys(actual.domainScores).sort()).toEqual(Object.keys(expected.domainScores).sort());
        for (const [domain, exact] of Object.entries(expected.domainScores))
          expectRounded(actual.domainScores[domain]!, exact, 4);
      }),
      { numRuns: 300 },
    );
  });

  it('is a coin flip with nothing resolved', () => {
    expect(decisionScore([], 0)).toEqual({
      brierScore: 0.5,
      totalTracked: 0,
      totalResolved: 0,
      domainScores: {},
      accuracyPercentage: 50,
      streak: 0,
    });
    expect(decisionScore([], 7).totalTracked).toBe(7);
  });

  it('is perfect when every verdict was certain and correct', () => {
    const samples = [1, 2, 3].map((d) => sample('correct', 1, `2026-03-0${d}T00:00:00.000Z`));
    expect(decisionScore(samples, 5)).toEqual({
      brierScore: 0,
      totalTracked: 5,
      totalResolved: 3,
      domainScores: { business: 0 },
      accuracyPercentage: 100,
      streak: 3,
    });
  });

  it('is worst when every certain verdict was wrong', () => {
    const samples = [sample('wrong', 1), sample('correct', 0)];
    const score = decisionScore(samples, 2);
    expect(score.brierScore).toBe(1);
    expect(score.accuracyPercentage).toBe(0);
    expect(score.streak).toBe(1);
  });

  it('averages, rounds and breaks the streak at the last non-correct outcome', () => {
    // Briers: 0.04, 0.09, 0, 0.01 → mean 0.035; domains: business (0.04 + 0) / 2, health (0.09 + 0.01) / 2.
    const samples = [
      sample('correct', 0.8, '2026-03-01T00:00:00.000Z', 'business'),
      sample('wrong', 0.3, '2026-03-02T00:00:00.000Z', 'health'),
      sample('partially_correct', 0.5, '2026-03-03T00:00:00.000Z', 'business'),
      sample('correct', 0.9, '2026-03-04T00:00:00.000Z', 'health'),
    ];
    expect(decisionScore(samples, 10)).toEqual({
      brierScore: 0.035,
      totalTracked: 10,
      totalResolved: 4,
      domainScores: { business: 0.02, health: 0.05 },
      accuracyPercentage: 96.5,
      streak: 1,
    });
    expect(decisionScore([...samples, sample('partially_correct', 0.5)], 10).streak).toBe(0);
    expect(decisionScore([...samples, sample('correct', 0.6)], 10).streak).toBe(2);
  });

  it('rounds the Brier score to 4 decimals and the accuracy to 2', () => {
    // Brier (1/3)² = 0.1111…; accuracy 88.888…
    const score = decisionScore([sample('wrong', 1 / 3)], 1);
    expect(score.brierScore).toBe(0.1111);
    expect(score.domainScores).toEqual({ business: 0.1111 });
    expect(score.accuracyPercentage).toBe(88.89);
  });
});

describe('calibration', () => {
  it('agrees with the reference', () => {
    fc.assert(
      fc.property(samplesArb, (samples) => {
        const actual = calibration(samples);
        const expected = refCalibration(samples);
        expect(actual.map((b) => [b.predictedRange, b.count])).toEqual(
          expected.map((b) => [b.predictedRange, b.count]),
        );
        actual.forEach((bucket, i) => {
          expectRounded(bucket.actualRate, expected[i]!.actualRate, 4);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('counts every sample exactly once from the minimum on', () => {
    fc.assert(
      fc.property(samplesArb, (samples) => {
        const total = calibration(samples).reduce((n, b) => n + b.count, 0);
        expect(total).toBe(samples.length < 5 ? 0 : samples.length);
      }),
    );
  });

  it('is empty with 4 samples and bucketed with 5', () => {
    const four = [0.05, 0.15, 0.95, 1].map((c) => sample('correct', c));
    expect(calibration(four)).toEqual([]);
    const five = [...four, sample('wrong', 0.97)];
    expect(calibration(five)).toEqual([
      { predictedRange: [0, 0.1], actualRate: 1, count: 1 },
      { predictedRange: [0.1, 0.2], actualRate: 1, count: 1 },
      { predictedRange: [0.9, 1], actualRate: 0.6667, count: 3 },
    ]);
  });

  it('puts confidence 0 in the first bucket, 1 in the last and each exact tenth in the bucket it opens', () => {
    const samples = [0, 0.1, 0.5, 0.9, 1].map((c) => sample('partially_correct', c));
    expect(calibration(samples)).toEqual([
      { predictedRange: [0, 0.1], actualRate: 0.5, count: 1 },
      { predictedRange: [0.1, 0.2], actualRate: 0.5, count: 1 },
      { predictedRange: [0.5, 0.6], actualRate: 0.5, count: 1 },
      { predictedRange: [0.9, 1], actualRate: 0.5, count: 2 },
    ]);
  });

  it('puts the double just below an edge i/10 in bucket i − 1 (edges other than 0.9)', () => {
    for (const i of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const below = nextDown(i / 10);
      const samples = Array.from({ length: 5 }, () => sample('correct', below));
      expect(calibration(samples)).toEqual([
        { predictedRange: [(i - 1) / 10, i / 10], actualRate: 1, count: 5 },
      ]);
    }
  });

  // 0.8999999999999999 * 10 rounds to 9.0 in floating point: the bucket is checked against its edges.
  it('puts 0.8999999999999999 (the double just below 0.9) in [0.8, 0.9)', () => {
    const below = nextDown(0.9);
    expect(below).toBe(0.8999999999999999);
    const samples = Array.from({ length: 5 }, () => sample('correct', below));
    expect(calibration(samples)).toEqual([{ predictedRange: [0.8, 0.9], actualRate: 1, count: 5 }]);
  });
});

/** The largest double below a positive `x`. */
function nextDown(x: number): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  view.setBigUint64(0, view.getBigUint64(0) - 1n);
  return view.getFloat64(0);
}

describe('dailyTotals', () => {
  it('agrees with the reference', () => {
    fc.assert(
      fc.property(samplesArb, (samples) => {
        const actual = dailyTotals(samples);
        const expected = refDailyTotals(samples);
        expect(actual.map((t) => [t.day, t.count])).toEqual(expected.map((t) => [t.day, t.count]));
        actual.forEach((t, i) => {
          expect(t.brierSum).toBeCloseTo(expected[i]!.brierSum, 9);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('splits at UTC midnight', () => {
    const totals = dailyTotals([
      sample('correct', 1, '2026-03-01T00:00:00.000Z'),
      sample('wrong', 1, '2026-03-01T23:59:59.999Z'),
      sample('wrong', 0.5, '2026-03-02T00:00:00.000Z'),
    ]);
    expect(totals).toEqual([
      { day: '2026-03-01', count: 2, brierSum: 1 },
      { day: '2026-03-02', count: 1, brierSum: 0.25 },
    ]);
  });

  it('is empty for no samples and sorted by day', () => {
    expect(dailyTotals([])).toEqual([]);
    const totals = dailyTotals([
      sample('correct', 1, '2026-12-31T10:00:00.000Z'),
      sample('correct', 1, '2026-01-31T10:00:00.000Z'),
      sample('correct', 1, '2026-02-01T10:00:00.000Z'),
    ]);
    expect(totals.map((t) => t.day)).toEqual(['2026-01-31', '2026-02-01', '2026-12-31']);
  });
});

describe('trend', () => {
  const nowArb = fc.integer({ min: START_MS - 5 * DAY_MS, max: END_MS + 45 * DAY_MS });
  const daysArb = fc.oneof(fc.integer({ min: 1, max: 10 }), fc.integer({ min: 1, max: 400 }));

  const expectPoints = (actual: ReturnType<typeof trend>, expected: RefPoint[]) => {
    expect(actual.map((p) => [p.date, p.sampleSize])).toEqual(expected.map((p) => [p.date, p.sampleSize]));
    actual.forEach((p, i) => {
      expectRounded(p.brierScore, expected[i]!.brierScore, 4);
      expectRounded(p.rollingAccuracy, expected[i]!.rollingAccuracy, 2);
    });
  };

  it('agrees with the reference', () => {
    fc.assert(
      fc.property(samplesArb, daysArb, nowArb, (samples, days, now) => {
        expectPoints(trend(refDailyTotals(samples), days, now), refTrend(samples, days, now));
      }),
      { numRuns: 300 },
    );
  });

  it('agrees with the reference when now falls among the samples', () => {
    fc.assert(
      fc.property(
        samplesArb.filter((s) => s.length > 0),
        daysArb,
        fc.nat(),
        fc.integer({ min: -40 * DAY_MS, max: 40 * DAY_MS }),
        (samples, days, pick, shift) => {
          const now = Date.parse(samples[pick % samples.length]!.resolvedAt) + shift;
          expectPoints(trend(dailyTotals(samples), days, now), refTrend(samples, days, now));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('is empty with nothing resolved', () => {
    expect(trend([], 30, Date.UTC(2026, 5, 1))).toEqual([]);
  });

  it('is empty when nothing was resolved by today', () => {
    const totals = dailyTotals([sample('correct', 1, '2026-03-10T00:00:00.000Z')]);
    expect(trend(totals, 30, Date.parse('2026-03-09T23:59:59.999Z'))).toEqual([]);
  });

  it('gives one point, today, when days = 1', () => {
    const totals = dailyTotals([
      sample('wrong', 1, '2026-03-01T08:00:00.000Z'),
      sample('correct', 1, '2026-03-10T00:00:00.000Z'),
    ]);
    expect(trend(totals, 1, Date.parse('2026-03-10T23:59:59.999Z'))).toEqual([
      { date: '2026-03-10T00:00:00.000Z', brierScore: 0.5, rollingAccuracy: 50, sampleSize: 2 },
    ]);
  });

  it('steps across a month end', () => {
    const totals = dailyTotals([
      sample('wrong', 1, '2026-01-31T23:59:59.999Z'),
      sample('correct', 1, '2026-02-01T00:00:00.000Z'),
    ]);
    expect(trend(totals, 4, Date.parse('2026-02-02T12:00:00.000Z'))).toEqual([
      { date: '2026-01-31T00:00:00.000Z', brierScore: 1, rollingAccuracy: 0, sampleSize: 1 },
      { date: '2026-02-01T00:00:00.000Z', brierScore: 0.5, rollingAccuracy: 50, sampleSize: 2 },
      { date: '2026-02-02T00:00:00.000Z', brierScore: 0.5, rollingAccuracy: 50, sampleSize: 2 },
    ]);
  });

  it('steps across a leap day', () => {
    const totals = dailyTotals([
      sample('wrong', 1, '2028-02-28T10:00:00.000Z'),
      sample('correct', 1, '2028-02-29T10:00:00.000Z'),
      sample('correct', 1, '2028-03-01T10:00:00.000Z'),
      sample('correct', 1, '2028-03-01T11:00:00.000Z'),
    ]);
    expect(trend(totals, 4, Date.parse('2028-03-01T00:00:00.000Z'))).toEqual([
      { date: '2028-02-28T00:00:00.000Z', brierScore: 1, rollingAccuracy: 0, sampleSize: 1 },
      { date: '2028-02-29T00:00:00.000Z', brierScore: 0.5, rollingAccuracy: 50, sampleSize: 2 },
      { date: '2028-03-01T00:00:00.000Z', brierScore: 0.25, rollingAccuracy: 75, sampleSize: 4 },
    ]);
  });

  it('counts everything before the window in the cumulative score, and rolls over 30 days', () => {
    // Jan 1 (wrong, Brier 1) is 30 days before Jan 31: outside that day's window, inside Jan 30's.
    const totals = dailyTotals([
      sample('wrong', 1, '2026-01-01T12:00:00.000Z'),
      sample('correct', 1, '2026-01-20T12:00:00.000Z'),
    ]);
    expect(trend(totals, 2, Date.parse('2026-01-31T05:00:00.000Z'))).toEqual([
      { date: '2026-01-30T00:00:00.000Z', brierScore: 0.5, rollingAccuracy: 50, sampleSize: 2 },
      { date: '2026-01-31T00:00:00.000Z', brierScore: 0.5, rollingAccuracy: 100, sampleSize: 1 },
    ]);
  });

  it('falls back to the cumulative accuracy when the rolling window resolved nothing', () => {
    const totals = dailyTotals([
      sample('wrong', 0.5, '2026-01-01T12:00:00.000Z'),
      sample('correct', 0.5, '2026-01-02T12:00:00.000Z'),
    ]);
    expect(trend(totals, 1, Date.parse('2026-03-01T00:00:00.000Z'))).toEqual([
      { date: '2026-03-01T00:00:00.000Z', brierScore: 0.25, rollingAccuracy: 75, sampleSize: 0 },
    ]);
  });

  it('ignores samples resolved after today', () => {
    const totals = dailyTotals([
      sample('correct', 1, '2026-03-01T12:00:00.000Z'),
      sample('wrong', 1, '2026-03-03T00:00:00.000Z'),
    ]);
    expect(trend(totals, 2, Date.parse('2026-03-02T23:59:59.999Z'))).toEqual([
      { date: '2026-03-01T00:00:00.000Z', brierScore: 0, rollingAccuracy: 100, sampleSize: 1 },
      { date: '2026-03-02T00:00:00.000Z', brierScore: 0, rollingAccuracy: 100, sampleSize: 1 },
    ]);
  });
});

describe('domainAccuracies', () => {
  it('agrees with the reference', () => {
    fc.assert(
      fc.property(samplesArb, (samples) => {
        const actual = domainAccuracies(samples);
        const expected = refDomainAccuracies(samples);
        expect(actual.map((d) => [d.domain, d.sampleSize, d.trend])).toEqual(
          expected.map((d) => [d.domain, d.sampleSize, d.trend]),
        );
        actual.forEach((d, i) => {
          expectRounded(d.brierScore, expected[i]!.brierScore, 4);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('agrees with the reference on few domains with confidences on tenths (near the margin)', () => {
    const tenthsSamples = fc
      .array(
        fc.record({
          status: fc.constantFrom(...STATUSES),
          confidence: fc.integer({ min: 0, max: 10 }).map((k) => k / 10),
          domain: fc.constantFrom<DebateDomain>('health', 'legal'),
        }),
        { maxLength: 20 },
      )
      .map((raw) =>
        raw.map(
          (r, i): ResolvedSample => ({ ...r, resolvedAt: new Date(START_MS + i * 1000).toISOString() }),
        ),
      );
    fc.assert(
      fc.property(tenthsSamples, (samples) => {
        const actual = domainAccuracies(samples);
        const expected = refDomainAccuracies(samples);
        expect(actual.map((d) => [d.domain, d.sampleSize, d.trend])).toEqual(
          expected.map((d) => [d.domain, d.sampleSize, d.trend]),
        );
      }),
      { numRuns: 500 },
    );
  });

  it('is empty for no samples', () => {
    expect(domainAccuracies([])).toEqual([]);
  });

  it('is stable under 4 samples however they move', () => {
    const samples = [sample('wrong', 1), sample('wrong', 1), sample('correct', 1)];
    expect(domainAccuracies(samples)).toEqual([
      { domain: 'business', brierScore: 0.6667, sampleSize: 3, trend: 'stable' },
    ]);
  });

  it('compares the newer half with the older one from 4 samples on', () => {
    const improving = [sample('wrong', 1), sample('wrong', 1), sample('correct', 1), sample('correct', 1)];
    expect(domainAccuracies(improving)[0]?.trend).toBe('improving');
    expect(domainAccuracies([...improving].reverse())[0]?.trend).toBe('declining');
    // Older half Brier 0, newer 0.04 (confidence 0.8): within the margin.
    const slight = [
      sample('correct', 1),
      sample('correct', 1),
      sample('correct', 0.8),
      sample('correct', 0.8),
    ];
    expect(domainAccuracies(slight)[0]?.trend).toBe('stable');
    // Older half Brier 0, newer 0.0625 (confidence 0.75): beyond it.
    const worse = [
      sample('correct', 1),
      sample('correct', 1),
      sample('correct', 0.75),
      sample('correct', 0.75),
    ];
    expect(domainAccuracies(worse)[0]?.trend).toBe('declining');
  });

  it('is stable when the halves differ by exactly the margin', () => {
    // Briers 0.050625 (wrong at 0.225) and 0.000625… (wrong at 0.025): the difference is exactly 0.05 in floats.
    const far = sample('wrong', 0.225);
    const near = sample('wrong', 0.025);
    expect(brierOf(far) - brierOf(near)).toBe(DOMAIN_TREND_MARGIN);
    expect(domainAccuracies([far, far, near, near])[0]?.trend).toBe('stable');
    expect(domainAccuracies([near, near, far, far])[0]?.trend).toBe('stable');
  });

  it('leaves the middle sample out of both halves when the count is odd', () => {
    // Halves are samples 1–2 and 4–5 (all Brier 0); the middle wrong one only moves the mean.
    const samples = [
      sample('correct', 1),
      sample('correct', 1),
      sample('wrong', 1),
      sample('correct', 1),
      sample('correct', 1),
    ];
    expect(domainAccuracies(samples)).toEqual([
      { domain: 'business', brierScore: 0.2, sampleSize: 5, trend: 'stable' },
    ]);
  });

  it('orders by sample size, then by name', () => {
    const samples = [
      sample('correct', 1, '2026-03-01T00:00:00.000Z', 'technology'),
      sample('correct', 1, '2026-03-01T00:00:01.000Z', 'other'),
      sample('correct', 1, '2026-03-01T00:00:02.000Z', 'technology'),
      sample('correct', 1, '2026-03-01T00:00:03.000Z', 'business'),
      sample('correct', 1, '2026-03-01T00:00:04.000Z', 'finance'),
      sample('correct', 1, '2026-03-01T00:00:05.000Z', 'finance'),
    ];
    expect(domainAccuracies(samples).map((d) => [d.domain, d.sampleSize])).toEqual([
      ['finance', 2],
      ['technology', 2],
      ['business', 1],
      ['other', 1],
    ]);
  });
});
