import { Effect } from 'effect';
import { restorationFrom } from '../../replay/replay.ts';
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

/**
 * Phase: read back what earlier holders stored. Whatever they stored but may not have published reaches live
 * streams now (JetStream drops the ones it already has by message id).
 */
export const restore = (job: ClaimedJob) =>
  Effect.gen(function* () {
    const attemptLog = yield* AttemptLog;
    const bus = yield* EngineBus;
    const { storage } = yield* EngineSettings;
    const restoration = yield* restorationFrom(
      yield* attemptLog.storedLog(job.lease).pipe(retryThroughBlips(storage)),
    );
    yield* Effect.tryPromise({
      try: () => Promise.all(restoration.events.map((event) => bus.events.publish(event))),
      catch: (cause) => new BusUnavailable({ cause }),
    }).pipe(retryThroughBlips(storage));
    return restoration;
  });
