import type { DebateDomain, ResolvedOutcome } from '@verdict/contracts';
import { OBSERVED } from '../score-math.ts';
import { applyPlatt, fitPlatt, IDENTITY, type PlattParameters, type WeightedOutcome } from './platt.ts';

/**
 * The rule for when a verdict's confidence is calibrated and how (ARCHITECTURE.md, "Calibrated confidence",
 * has the figures behind each number).
 */
export const CALIBRATION_RULES = {
  /** Resolved outcomes of the owner below which nothing is calibrated: the raw confidence stands alone. */
  minimumForOwner: 30,
  /** Resolved outcomes in a domain from which that domain gets a curve of its own (shrunk to the owner's). */
  minimumForDomain: 10,
  /** Precision of each level's prior: the global curve toward the identity, an owner's toward the global, a domain's toward its owner's. */
  globalStrength: 10,
  ownerStrength: 40,
  domainStrength: 40,
  /** An outcome this many days older than the newest weighs half as much: a judge's habits drift. */
  halfLifeDays: 90,
} as const;

export type CalibrationSample = {
  confidence: number;
  status: ResolvedOutcome;
  domain: DebateDomain;
  /** When the debate was resolved (ISO). */
  resolvedAt: string;
};

/** An owner's fitted curves: overall, and per domain where the domain has enough outcomes. */
export type OwnerCalibration = {
  owner: PlattParameters;
  domains: Partial<Record<DebateDomain, PlattParameters>>;
  /** Resolved outcomes each curve was fitted on. */
  basedOn: { owner: number; domains: Partial<Record<DebateDomain, number>> };
};

export type Calibrated = {
  calibratedConfidence: number;
  calibration: { method: 'platt-shrinkage'; basedOn: number; scope: 'domain' | 'owner' };
};

const DAY_MS = 86_400_000;

/** Each sample weighted by its age relative to the newest one (CALIBRATION_RULES.halfLifeDays). */
function weighted(samples: readonly CalibrationSample[]): WeightedOutcome[] {
  const newest = Math.max(...samples.map((s) => Date.parse(s.resolvedAt)));
  return samples.map((sample) => ({
    confidence: sample.confidence,
    observed: OBSERVED[sample.status],
    weight: 0.5 ** ((newest - Date.parse(sample.resolvedAt)) / DAY_MS / CALIBRATION_RULES.halfLifeDays),
  }));
}

/** The curve of every owner's outcomes together, shrunk toward the identity: the prior of each owner. */
export function fitGlobalCurve(samples: readonly CalibrationSample[]): PlattParameters {
  if (samples.length === 0) return IDENTITY;
  return fitPlatt(weighted(samples), IDENTITY, CALIBRATION_RULES.globalStrength);
}

/** An owner's curves, or null below CALIBRATION_RULES.minimumForOwner resolved outcomes. */
export function fitOwnerCalibration(
  samples: readonly CalibrationSample[],
  global: PlattParameters,
): OwnerCalibration | null {
  if (samples.length < CALIBRATION_RULES.minimumForOwner) return null;
  const owner = fitPlatt(weighted(samples), global, CALIBRATION_RULES.ownerStrength);
  const byDomain = new Map<DebateDomain, CalibrationSample[]>();
  for (const sample of samples) {
    // Appended, never copied: a copy per sample made grouping quadratic (5000 outcomes took ~20 ms).
    const inDomain = byDomain.get(sample.domain);
    if (inDomain) inDomain.push(sample);
    else byDomain.set(sample.domain, [sample]);
  }
  const domains: OwnerCalibration['domains'] = {};
  const counts: OwnerCalibration['basedOn']['domains'] = {};
  for (const [domain, inDomain] of byDomain) {
    if (inDomain.length < CALIBRATION_RULES.minimumForDomain) continue;
    domains[domain] = fitPlatt(weighted(inDomain), owner, CALIBRATION_RULES.domainStrength);
    counts[domain] = inDomain.length;
  }
  return { owner, domains, basedOn: { owner: samples.length, domains: counts } };
}

/** The calibrated confidence of a new verdict in `domain`, and how it was made; null when not calibrated. */
export function calibrate(
  model: OwnerCalibration | null,
  confidence: number,
  domain: DebateDomain | null,
): Calibrated | null {
  if (!model) return null;
  const own = domain ? model.domains[domain] : undefined;
  const curve = own ?? model.owner;
  return {
    calibratedConfidence: applyPlatt(curve, confidence),
    calibration: {
      method: 'platt-shrinkage',
      basedOn: own && domain ? (model.basedOn.domains[domain] ?? 0) : model.basedOn.owner,
      scope: own ? 'domain' : 'owner',
    },
  };
}
