import type { CalibrationComparison, DebateDomain, ReliabilityBucket } from '@verdict/contracts';
import type { CoreResources } from '../../resources.ts';
import { bucketOf, OBSERVED } from '../score-math.ts';
import { CALIBRATION_RULES, calibrate } from './calibration-model.ts';
import { ownerCalibration, resolvedSamples } from './calibration-store.ts';

/** What the calibration report uses of core's resources. */
export type CalibrationReportResources = Pick<CoreResources, 'db'>;

/** Figures as the API shows them: four decimals. */
const round = (value: number) => Number(value.toFixed(4));

/** A reliability diagram of (predicted, observed) pairs: 0.1-wide buckets, empty ones left out. */
export function reliability(pairs: readonly { predicted: number; observed: number }[]): ReliabilityBucket[] {
  const buckets = Array.from({ length: 10 }, () => ({ count: 0, predicted: 0, observed: 0 }));
  for (const { predicted, observed } of pairs) {
    const bucket = buckets[bucketOf(predicted)] as (typeof buckets)[number];
    bucket.count += 1;
    bucket.predicted += predicted;
    bucket.observed += observed;
  }
  return buckets.flatMap((b, i) =>
    b.count === 0
      ? []
      : [
          {
            predictedRange: [i / 10, (i + 1) / 10],
            count: b.count,
            meanPredicted: round(b.predicted / b.count),
            actualRate: round(b.observed / b.count),
          },
        ],
  );
}

const brier = (pairs: readonly { predicted: number; observed: number }[]) =>
  pairs.length === 0
    ? null
    : round(pairs.reduce((sum, p) => sum + (p.predicted - p.observed) ** 2, 0) / pairs.length);

/**
 * GET /api/scores/calibration: the caller's resolved outcomes (the newest, up to the fit window) under the
 * judge's raw confidence and under the calibrated confidence their current curves give each of them. The
 * curves were fitted on these same outcomes, so the calibrated side is in-sample (optimistic); the held-out
 * gains are measured in calibration.test.ts.
 */
export function createCalibrationReport({ db }: CalibrationReportResources) {
  return {
    compare: async (userId: string): Promise<CalibrationComparison> => {
      const em = db.em();
      const [samples, stored] = await Promise.all([
        resolvedSamples(em, userId),
        ownerCalibration(em, userId),
      ]);
      const raw = samples.map((s) => ({ predicted: s.confidence, observed: OBSERVED[s.status] }));
      const calibrated = stored
        ? samples.map((s) => ({
            predicted: calibrate(stored.model, s.confidence, s.domain)?.calibratedConfidence ?? s.confidence,
            observed: OBSERVED[s.status],
          }))
        : [];
      return {
        resolved: samples.length,
        raw: reliability(raw),
        calibrated: reliability(calibrated),
        brier: { raw: brier(raw), calibrated: brier(calibrated) },
        curve: {
          applied: stored !== null,
          method: 'platt-shrinkage',
          minimum: CALIBRATION_RULES.minimumForOwner,
          basedOn: stored?.model.basedOn.owner ?? 0,
          domains: Object.entries(stored?.model.basedOn.domains ?? {})
            .map(([domain, basedOn]) => ({ domain: domain as DebateDomain, basedOn: basedOn ?? 0 }))
            .sort((a, b) => b.basedOn - a.basedOn || a.domain.localeCompare(b.domain)),
          fittedAt: stored?.fittedAt ?? null,
        },
      };
    },
  };
}

export type CalibrationReport = ReturnType<typeof createCalibrationReport>;
