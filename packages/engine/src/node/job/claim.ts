import type { JobHandle } from '@verdict/core';
import { Effect } from 'effect';
import { monotonicMs } from '../../clock.ts';
import { AttemptLog } from '../../store/attempt-log.ts';
import { LeaseStore } from '../../store/lease-store.ts';
import type { JobEnding } from '../job-endings.ts';
import { publishUnpublished } from './restore.ts';

/**
 * Phase: the claim, which also reads what the debate runs on. Who runs the debate is the database's to
 * decide: the job only woke this node up. A claimed debate comes with `claimedAt` (monotonic):
 * its lease holds from the claim's statement at the earliest, until then plus its period.
 */
export const claimJob = (handle: JobHandle) =>
  Effect.gen(function* () {
    const store = yield* LeaseStore;
    const claimedAt = yield* monotonicMs;
    const claim = yield* store.claim(handle.job);
    return claim.kind === 'claimed' ? { ...claim, claimedAt } : claim;
  });

/**
 * The job of a debate this attempt already finished: its holder stored the final state but may have died, or
 * met a bus outage, before publishing the events stored with it, and live streams would wait for them for
 * ever. Those after the last one the bus holds are published again (streams drop what they already sent).
 */
export const publishedAgain = (handle: JobHandle) =>
  Effect.gen(function* () {
    const attemptLog = yield* AttemptLog;
    const published = yield* Effect.result(
      Effect.andThen(attemptLog.storedEvents(handle.job), (events) => publishUnpublished(handle.job, events)),
    );
    return published._tag === 'Success'
      ? ({ _tag: 'Gone' } satisfies JobEnding)
      : ({ _tag: 'Unpublished', cause: published.failure } satisfies JobEnding);
  });
