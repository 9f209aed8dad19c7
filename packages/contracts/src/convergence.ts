import { z } from 'zod';
import {
  DEFAULT_CONVERGENCE_THRESHOLD,
  MIN_CONVERGENCE_THRESHOLD,
  Recommendation,
  Stance,
} from './debates.ts';

/**
 * What an agent's turn states it stands for, read from the machine-readable `POSITION: {…}` line the
 * debater prompt asks it to end with: for a comparison its ranking of the options (best first, by letter),
 * otherwise its recommendation, stance and confidence (0–1). Null on a turn when the line was missing or
 * unreadable: an unknown position, which agrees with nobody.
 */
export const TurnPosition = z
  .object({
    recommendation: Recommendation.optional(),
    stance: Stance.optional(),
    confidence: z.number().min(0).max(1).optional(),
    ranking: z.array(z.string().min(1).max(20)).max(26).optional(),
  })
  .meta({ id: 'TurnPosition' });
export type TurnPosition = z.infer<typeof TurnPosition>;

/** The optional early-stop fields of both create bodies. */
export const EarlyStopFields = {
  stopWhenConverged: z
    .boolean()
    .optional()
    .meta({
      description:
        'Skip the remaining rounds once the agents’ positions converge (score ≥ convergenceThreshold after a ' +
        'round); the judge then runs at once and the skipped rounds’ share of the credits is refunded',
    }),
  convergenceThreshold: z
    .number()
    .min(MIN_CONVERGENCE_THRESHOLD)
    .max(1)
    .optional()
    .meta({
      description: `With stopWhenConverged: the score that stops (default ${DEFAULT_CONVERGENCE_THRESHOLD})`,
    }),
};

/** The early stop a create body asks for: its threshold, or null when off. */
export const earlyStopOf = (input: { stopWhenConverged?: boolean; convergenceThreshold?: number }) =>
  input.stopWhenConverged ? { threshold: input.convergenceThreshold ?? DEFAULT_CONVERGENCE_THRESHOLD } : null;

/**
 * The credits an early stop gives back of a charge: the unspoken rounds' share, rounded down (the judge and
 * the rounds that ran stay paid; rounding costs the payer at most one credit, never the ledger).
 *
 * @example
 * unspokenRoundsRefund(8, { spoken: 1, planned: 3 }) // 5
 */
export const unspokenRoundsRefund = (charged: number, rounds: { spoken: number; planned: number }) =>
  rounds.planned > 0 && rounds.spoken < rounds.planned
    ? Math.floor((charged * (rounds.planned - rounds.spoken)) / rounds.planned)
    : 0;
