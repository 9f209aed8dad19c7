import type { JobHandle } from '@verdict/core';
import { Effect } from 'effect';
import { monotonicMs } from '../../clock.ts';
import { EngineBus } from '../../services.ts';
import { AttemptLog } from '../../store/attempt-log.ts';
import { BusUnavailable } from '../../store/errors.ts';
import { LeaseStore } from '../../store/lease-store.ts';
import type { JobEnding } from '../job-endings.ts';

/**
 * Phase: a look at the debate, and the claim. Who runs the debate is the database's to decide: the job only
 * woke this node up. A claimed debate comes with `claimedAt` (monotonic): its lease holds from the claim's
 * statement at the earliest, until then plus its period.
 */
export const lookAndClaim = (handle: JobHandle) =>
  Effect.gen(function* () {
    const store = yield* LeaseStore;
    const debate = yield* store.find(handle.job.debateId);
    if (!debate || debate.attempt !== handle.job.attempt) return { kind: 'gone' } as const;
    if (debate.status === 'completed' || debate.status === 'failed') return { kind: 'finished' } as const;
    const claimedAt = yield* monotonicMs;
    const claim = yield* store.claim(handle.job);
    return claim.kind === 'claimed' ? { ...claim, debate, claimedAt } : claim;
  });

/**
 * The job of a debate this attempt already finished: its holder stored the final state but may have died, or
 * met a bus outage, before publishing the events stored with it, and live streams would wait for them for
 * ever. They are published again (JetStream drops the ones it has by message id; streams drop what they sent).
 */
export const publishedAgain = (handle: JobHandle) =>
  Effect.gen(function* () {
    const attemptLog = yield* AttemptLog;
    const bus = yield* EngineBus;
    const published = yield* Effect.result(
      Effect.gen(function* () {
        const events = yield* attemptLog.storedEvents(handle.job);
        yield* Effect.tryPromise({
          try: () => Promise.all(events.map((event) => bus.events.publish(event))),
          catch: (cause) => new BusUnavailable({ cause }),
        });
      }),
    );
    return published._tag === 'Success'
      ? ({ _tag: 'Gone' } satisfies JobEnding)
      : ({ _tag: 'Unpublished', cause: published.failure } satisfies JobEnding);
  });
