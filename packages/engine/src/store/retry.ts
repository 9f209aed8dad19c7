import { Duration, Effect, Schedule } from 'effect';
import type { BusUnavailable, StorageUnavailable } from './errors.ts';

/** How long a write keeps trying through an outage, and how it spaces its tries. */
export type StorageRetryPolicy = {
  /** The tolerance: past it the debate goes back to the queue instead of waiting longer. */
  toleranceMs: number;
  firstDelayMs?: number;
  maxDelayMs?: number;
};

/** Exponential backoff (100 ms doubling, capped at 2 s) for as long as the tolerance allows. */
export function storageSchedule(policy: StorageRetryPolicy) {
  const cap = Duration.millis(policy.maxDelayMs ?? 2000);
  return Schedule.exponential(Duration.millis(policy.firstDelayMs ?? 100)).pipe(
    Schedule.modifyDelay(({ duration }) => Effect.succeed(Duration.min(duration, cap))),
    Schedule.upTo({ duration: Duration.millis(policy.toleranceMs) }),
  );
}

const isBlip = (error: { readonly _tag: string }): error is StorageUnavailable | BusUnavailable =>
  error._tag === 'StorageUnavailable' || error._tag === 'BusUnavailable';

/**
 * Retries a storage or bus write through a blip shorter than the tolerance, so an outage pauses a debate
 * instead of failing it; anything else (a lost lease, a defect) fails at once.
 */
export const retryThroughBlips =
  (policy: StorageRetryPolicy) =>
  <A, E extends { readonly _tag: string }, R>(effect: Effect.Effect<A, E, R>) =>
    effect.pipe(Effect.retry({ schedule: storageSchedule(policy), while: isBlip }));
