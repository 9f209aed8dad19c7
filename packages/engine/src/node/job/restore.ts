import type { DebateEvent } from '@verdict/contracts';
import type { DebateJob } from '@verdict/core';
import { Effect } from 'effect';
import { type Restoration, restorationFrom } from '../../replay/replay.ts';
import { EngineBus, EngineSettings } from '../../services.ts';
import { AttemptLog } from '../../store/attempt-log.ts';
import { BusUnavailable } from '../../store/errors.ts';
import { LeaseStore } from '../../store/lease-store.ts';
import { retryThroughBlips } from '../../store/retry.ts';
import type { ClaimedJob } from './claimed-job.ts';

/** Phase: the debate reads `running` (or stays `paused`), under this node's lease. */
export const markRunning = (job: ClaimedJob) =>
  Effect.gen(function* () {
    const store = yield* LeaseStore;
    const { storage } = yield* EngineSettings;
    yield* store.markRunning(job.lease).pipe(retryThroughBlips(storage));
  });

/** A debate no node started: nothing of its attempt is stored. */
const NOTHING_STORED: Restoration = {
  resumption: null,
  events: [],
  storedKeys: [],
  lastSeq: 0,
  failedBeforeStart: null,
};

/**
 * Phase: read back what earlier holders stored. Whatever they stored but may not have published reaches live
 * streams now. A fresh claim (no node started the attempt) has nothing to read.
 */
export const restore = (job: ClaimedJob) =>
  Effect.gen(function* () {
    if (job.fresh) return NOTHING_STORED;
    const attemptLog = yield* AttemptLog;
    const { storage } = yield* EngineSettings;
    const restoration = yield* restorationFrom(
      yield* attemptLog.storedLog(job.lease).pipe(retryThroughBlips(storage)),
    );
    yield* publishUnpublished(job.lease, restoration.events).pipe(retryThroughBlips(storage));
    return restoration;
  });

/**
 * The stored events of an attempt that the bus may not have: those after the last one it holds (a holder
 * publishes in order, after storing, so only its last writes can be missing), each published again. One
 * look at the bus instead of a publish of every stored event, which JetStream would drop by message id.
 */
export const publishUnpublished = (attempt: DebateJob, stored: readonly DebateEvent[]) =>
  Effect.gen(function* () {
    const bus = yield* EngineBus;
    if (stored.length === 0) return;
    yield* Effect.tryPromise({
      try: async () => {
        const published = await bus.events.lastSeq(attempt.debateId, attempt.attempt);
        const missing = stored.filter((event) => event.seq > published);
        await Promise.all(missing.map((event) => bus.events.publish(event)));
      },
      catch: (cause) => new BusUnavailable({ cause }),
    });
  });
