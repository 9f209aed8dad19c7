import { confidencePercent } from '@verdict/contracts';

/**
 * The `data` of a debate stream message, from a stored or published event's data. Every event passes
 * through unchanged except the verdict, whose confidence (and calibrated confidence, when it has one) is
 * stored 0–1 and sent as the spec's whole-number percent (0.64 → 64).
 */
export function streamData(type: string, data: unknown): unknown {
  if (type !== 'verdict' || !isObject(data) || typeof data.confidence !== 'number') return data;
  const calibrated = data.calibratedConfidence;
  return {
    ...data,
    confidence: confidencePercent(data.confidence),
    ...(typeof calibrated === 'number' ? { calibratedConfidence: confidencePercent(calibrated) } : {}),
  };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
