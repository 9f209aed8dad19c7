import type {
  CalibrationBucket,
  DebateDomain,
  DecisionScore,
  DomainAccuracy,
  ResolvedOutcome,
  TrendPoint,
} from '@verdict/contracts';

/** One resolved outcome as the score sees it: what the verdict was sure of, and what happened. */
export type ResolvedSample = {
  status: ResolvedOutcome;
  /** The verdict's confidence, 0–1. */
  confidence: number;
  domain: DebateDomain;
  /** When it was resolved (ISO); samples are read in this order. */
  resolvedAt: string;
};

/** What happened, as a probability the verdict should have given: correct 1, partially 0.5, wrong 0. */
export const OBSERVED: Readonly<Record<ResolvedOutcome, number>> = {
  correct: 1,
  partially_correct: 0.5,
  wrong: 0,
};

/** The score with nothing resolved: a coin flip's Brier score. */
export const UNRESOLVED_BRIER = 0.5;

/** Calibration needs this many resolved outcomes before its buckets mean anything. */
export const CALIBRATION_MINIMUM = 5;

/** The rolling accuracy of a trend point covers this many days ending on its date. */
export const ROLLING_DAYS = 30;

/** A domain's trend compares its older and newer halves once it has this many outcomes. */
export const DOMAIN_TREND_MINIMUM = 4;
/** Brier difference between the halves below which a domain is stable. */
export const DOMAIN_TREND_MARGIN = 0.05;

export const brierOf = (sample: Pick<ResolvedSample, 'status' | 'confidence'>) =>
  (sample.confidence - OBSERVED[sample.status]) ** 2;

const mean = (values: readonly number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
/** Figures as the API shows them: four decimals for a score, two for a percentage. */
const round = (value: number, decimals: number) => Number(value.toFixed(decimals));

/** Each domain's Brier scores, in resolution order (a sample is appended, never copied). */
function briersByDomain(samples: readonly ResolvedSample[]): Map<DebateDomain, number[]> {
  const byDomain = new Map<DebateDomain, number[]>();
  for (const sample of samples) {
    const briers = byDomain.get(sample.domain) ?? [];
    briers.push(brierOf(sample));
    byDomain.set(sample.domain, briers);
  }
  return byDomain;
}

/** The decision score of resolved samples in resolution order; `totalTracked` counts every record. */
export function decisionScore(samples: readonly ResolvedSample[], totalTracked: number): DecisionScore {
  const brier = samples.length === 0 ? UNRESOLVED_BRIER : mean(samples.map(brierOf));
  let streak = 0;
  for (let i = samples.length - 1; i >= 0 && samples[i]?.status === 'correct'; i--) streak++;
  const byDomain = briersByDomain(samples);
  return {
    brierScore: round(brier, 4),
    totalTracked,
    totalResolved: samples.length,
    domainScores: Object.fromEntries(
      [...byDomain].map(([domain, briers]) => [domain, round(mean(briers), 4)]),
    ),
    accuracyPercentage: round((1 - brier) * 100, 2),
    streak,
  };
}

/**
 * The calibration bucket of a confidence: i with i/10 ≤ confidence < (i+1)/10, 1.0 in the last. Checked
 * against the edges, since `confidence * 10` can round across one (0.8999999999999999 * 10 === 9).
 */
export function bucketOf(confidence: number): number {
  let i = Math.floor(confidence * 10);
  if (i / 10 > confidence) i -= 1;
  else if ((i + 1) / 10 <= confidence) i += 1;
  return Math.min(9, Math.max(0, i));
}

/**
 * 0.1-wide buckets of verdict confidence ([0, 0.1) … [0.9, 1.0], 1.0 in the last), each with how often such
 * verdicts came true (the mean observed value) and how many there were; empty buckets are left out, and
 * everything under CALIBRATION_MINIMUM resolved outcomes is [].
 */
export function calibration(samples: readonly ResolvedSample[]): CalibrationBucket[] {
  if (samples.length < CALIBRATION_MINIMUM) return [];
  const buckets = Array.from({ length: 10 }, () => [] as number[]);
  for (const sample of samples) {
    buckets[bucketOf(sample.confidence)]?.push(OBSERVED[sample.status]);
  }
  return buckets.flatMap((observed, i) =>
    observed.length === 0
      ? []
      : [
          {
            predictedRange: [i / 10, (i + 1) / 10],
            actualRate: round(mean(observed), 4),
            count: observed.length,
          },
        ],
  );
}

/** Resolutions of one UTC day: how many, and the sum of their Brier scores. */
export type DayTotals = { day: string; count: number; brierSum: number };

/** Per-UTC-day totals of resolved samples, in day order: what a trend is computed from. */
export function dailyTotals(samples: readonly ResolvedSample[]): DayTotals[] {
  const days = new Map<string, DayTotals>();
  for (const sample of samples) {
    const day = sample.resolvedAt.slice(0, 10);
    const totals = days.get(day) ?? { day, count: 0, brierSum: 0 };
    totals.count += 1;
    totals.brierSum += brierOf(sample);
    days.set(day, totals);
  }
  return [...days.values()].sort((a, b) => a.day.localeCompare(b.day));
}

const DAY_MS = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * One point per UTC day of the `days` ending today (`now`), from the first day with a resolution on:
 * `brierScore` is the score of everything resolved up to that day's end, `rollingAccuracy` the accuracy of
 * the ROLLING_DAYS ending that day (the cumulative one when those days resolved nothing), and `sampleSize`
 * the number of outcomes in that rolling window. [] when nothing is resolved.
 */
export function trend(totals: readonly DayTotals[], days: number, now: number): TrendPoint[] {
  if (totals.length === 0) return [];
  const today = Date.parse(`${dayOf(now)}T00:00:00.000Z`);
  const firstDay = today - (days - 1) * DAY_MS;
  const points: TrendPoint[] = [];
  // `next` is the first day total not yet counted, `oldest` the first inside the rolling window; both only
  // move forward. The window (at most ROLLING_DAYS totals) is summed afresh each day rather than kept by
  // subtraction, which would drift in floating point: a trend costs O(days × ROLLING_DAYS).
  const cumulative = { count: 0, brierSum: 0 };
  let next = 0;
  let oldest = 0;
  const take = (t: DayTotals) => {
    cumulative.count += t.count;
    cumulative.brierSum += t.brierSum;
  };
  // Everything resolved before the window counts towards the cumulative score of its first day.
  while (next < totals.length && (totals[next] as DayTotals).day < dayOf(firstDay))
    take(totals[next++] as DayTotals);
  for (let at = firstDay; at <= today; at += DAY_MS) {
    const day = dayOf(at);
    while (next < totals.length && (totals[next] as DayTotals).day === day) take(totals[next++] as DayTotals);
    const windowStart = dayOf(at - (ROLLING_DAYS - 1) * DAY_MS);
    while (oldest < next && (totals[oldest] as DayTotals).day < windowStart) oldest++;
    if (cumulative.count === 0) continue;
    const inWindow = totals.slice(oldest, next);
    const rollingCount = inWindow.reduce((n, t) => n + t.count, 0);
    const rollingBrier =
      rollingCount === 0
        ? cumulative.brierSum / cumulative.count
        : inWindow.reduce((sum, t) => sum + t.brierSum, 0) / rollingCount;
    points.push({
      date: `${day}T00:00:00.000Z`,
      brierScore: round(cumulative.brierSum / cumulative.count, 4),
      rollingAccuracy: round((1 - rollingBrier) * 100, 2),
      sampleSize: rollingCount,
    });
  }
  return points;
}

/**
 * Per domain: its Brier score, how many outcomes, and its trend — the newer half of its outcomes (by
 * resolution) against the older half: `improving` when the newer half's Brier score is lower by more than
 * DOMAIN_TREND_MARGIN, `declining` when higher by more, else `stable` (also under DOMAIN_TREND_MINIMUM
 * outcomes). Ordered by sample size, then name.
 */
export function domainAccuracies(samples: readonly ResolvedSample[]): DomainAccuracy[] {
  const byDomain = briersByDomain(samples);
  return [...byDomain]
    .map(([domain, briers]): DomainAccuracy => {
      let trendOf: DomainAccuracy['trend'] = 'stable';
      if (briers.length >= DOMAIN_TREND_MINIMUM) {
        const half = Math.floor(briers.length / 2);
        const change = mean(briers.slice(briers.length - half)) - mean(briers.slice(0, half));
        if (change < -DOMAIN_TREND_MARGIN) trendOf = 'improving';
        else if (change > DOMAIN_TREND_MARGIN) trendOf = 'declining';
      }
      return { domain, brierScore: round(mean(briers), 4), sampleSize: briers.length, trend: trendOf };
    })
    .sort((a, b) => b.sampleSize - a.sampleSize || a.domain.localeCompare(b.domain));
}
