import type { DebateDomain, ResolvedOutcome } from '@verdict/contracts';
import type { CalibrationSample } from './calibration-model.ts';
import { logit, sigmoid } from './platt.ts';

/** A small, seeded random source (mulberry32): the same seed gives the same history on every machine. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** How often a verdict said with `confidence` comes true: the judge's true reliability curve. */
export type Reliability = (confidence: number) => number;

/** Well calibrated: it comes true as often as the judge says. */
export const calibrated: Reliability = (c) => c;
/** Says 0.9 when it is right about 0.75 of the time. */
export const overconfident: Reliability = (c) => sigmoid(0.5 * logit(c));
/** Says 0.7 when it is right about 0.85 of the time. */
export const underconfident: Reliability = (c) => sigmoid(2 * logit(c));

/**
 * `count` resolved verdicts, one a day from `startDay`: the judge's confidence spread over 0.5–0.98 as
 * judges' are, the outcome drawn from `reliability` (a tenth of them partially correct, counted as 0.5
 * whatever the curve says, as an outcome recorder would).
 */
export function simulateHistory(options: {
  random: () => number;
  count: number;
  reliability: Reliability | ((confidence: number, domain: DebateDomain) => number);
  domains?: readonly DebateDomain[];
  startDay?: number;
}): CalibrationSample[] {
  const { random, count, reliability } = options;
  const domains = options.domains ?? ['business'];
  return Array.from({ length: count }, (_, i) => {
    const confidence = 0.5 + random() * 0.48;
    const domain = domains[Math.floor(random() * domains.length)] as DebateDomain;
    const partial = random() < 0.1;
    const cameTrue = random() < reliability(confidence, domain);
    const status: ResolvedOutcome = partial ? 'partially_correct' : cameTrue ? 'correct' : 'wrong';
    return {
      confidence,
      status,
      domain,
      resolvedAt: new Date(Date.UTC(2026, 0, 1) + ((options.startDay ?? 0) + i) * 86_400_000).toISOString(),
    };
  });
}
