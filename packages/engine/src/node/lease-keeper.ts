import { Context, Effect, Layer, Schedule, type Scope } from 'effect';
import { elapsedReader, monotonicMs } from '../clock.ts';
import { logLine } from '../logging.ts';
import type { LlmProvider } from '../providers/port.ts';
import { EngineSettings } from '../services.ts';
import { LeaseStore } from '../store/lease-store.ts';
import type { Lease } from '../store/records.ts';

/** A lease this node keeps, as its job sees it. */
export type HeldLease = {
  /**
   * Resolves once the lease is known to hold now: at once while the last renewal (or the claim) vouches for
   * it, otherwise at the next renewal that finds it still held. A lease found lost never resolves it (the
   * job is told, and stops); `signal` ends the wait. A node that was paused or cut off past its lease must
   * not act on it before it knows: asking a provider for a turn the next holder may already have stored.
   */
  readonly confirmed: (signal?: AbortSignal) => Promise<void>;
};

type Entry = {
  lease: Lease;
  lost: () => void;
  /** Until when the lease surely holds (monotonic): a renewal's (or the claim's) start plus the lease period. */
  confirmedUntil: number;
  /** Waits for the next renewal that finds the lease held. */
  waiting: Set<() => void>;
};

/**
 * Keeps this node's leases alive: one fiber renews all of them together on every heartbeat, tells a job
 * whose lease is gone (another node claimed the debate, or it was finished or deleted elsewhere), and lets a
 * job wait until its lease is known to hold before it acts (`HeldLease.confirmed`).
 */
export class LeaseKeeper extends Context.Service<
  LeaseKeeper,
  {
    /**
     * Renews `lease` until the scope closes; `lost` is called once if a renewal finds it gone. `claimedAt`
     * is when the claim's statement was sent, on the monotonic clock (clock.ts): the lease holds until then
     * plus the lease period at least.
     */
    readonly keep: (
      lease: Lease,
      lost: () => void,
      claimedAt: number,
    ) => Effect.Effect<HeldLease, never, Scope.Scope>;
  }
>()('@verdict/engine/LeaseKeeper') {
  static readonly layer = Layer.effect(
    LeaseKeeper,
    Effect.gen(function* () {
      const store = yield* LeaseStore;
      const { heartbeatMs, leaseMs } = yield* EngineSettings;
      const held = new Map<string, Entry>();
      const now = yield* elapsedReader;

      const renewAll = Effect.gen(function* () {
        const entries = [...held.values()];
        if (entries.length === 0) return;
        const startedAt = yield* monotonicMs;
        const stillHeld = yield* store.renew(entries.map((entry) => entry.lease));
        for (const entry of entries) {
          // A job that ended (or claimed again) during the renewal is not this entry any more.
          if (held.get(entry.lease.debateId) !== entry) continue;
          if (!stillHeld.has(entry.lease.debateId)) {
            entry.lost();
            continue;
          }
          entry.confirmedUntil = startedAt + leaseMs;
          for (const wake of entry.waiting) wake();
          entry.waiting.clear();
        }
      }).pipe(
        // Safe to skip: the leases have until they expire, and the next heartbeat tries again. Meanwhile a
        // job waiting for its lease to be confirmed waits on.
        Effect.catch((error) => logLine('warn', 'lease renewal failed; retrying next heartbeat', { error })),
      );

      yield* Effect.forkScoped(
        Effect.repeat(renewAll, Schedule.spaced(heartbeatMs)).pipe(Effect.delay(heartbeatMs)),
      );

      return LeaseKeeper.of({
        keep: (lease, lost, claimedAt) =>
          Effect.acquireRelease(
            Effect.sync(() => {
              const entry: Entry = { lease, lost, confirmedUntil: claimedAt + leaseMs, waiting: new Set() };
              held.set(lease.debateId, entry);
              return entry;
            }),
            // Out of the renewal set before the lease is released, so a renewal in flight cannot extend it.
            (entry) =>
              Effect.sync(() => {
                if (held.get(lease.debateId) === entry) held.delete(lease.debateId);
              }),
          ).pipe(
            Effect.map((entry): HeldLease => ({ confirmed: (signal) => confirmation(entry, now, signal) })),
          ),
      });
    }),
  );
}

function confirmation(entry: Entry, now: () => number, signal?: AbortSignal): Promise<void> {
  if (now() < entry.confirmedUntil) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const wake = () => {
      signal?.removeEventListener('abort', abort);
      resolve();
    };
    const abort = () => {
      entry.waiting.delete(wake);
      reject(signal?.reason);
    };
    entry.waiting.add(wake);
    signal?.addEventListener('abort', abort, { once: true });
  });
}

/**
 * The provider behind the lease: each call waits until the lease is known to hold. A node that wakes from a
 * pause past its lease holds a provider's answer it got before, and its actor moves on to the next turns at
 * once, before its next renewal finds the lease taken: without the wait it asks for turns the next holder
 * has already stored (seen in a chaos run: two round-2 turns asked again 1.5 s after they were stored).
 */
export const behindLease = (provider: LlmProvider, held: HeldLease): LlmProvider => ({
  name: provider.name,
  complete: async (request) => {
    await held.confirmed(request.signal);
    return provider.complete(request);
  },
});
