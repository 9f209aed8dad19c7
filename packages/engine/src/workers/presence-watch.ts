import { Effect } from 'effect';
import { logLine } from '../logging.ts';
import { EngineBus, EngineProbe, EngineSettings } from '../services.ts';
import { BusUnavailable } from '../store/errors.ts';
import type { Orphan } from '../store/holder-presence.ts';
import { LeaseStore } from '../store/lease-store.ts';
import type { BackgroundWorker } from './background-worker.ts';

/**
 * The debates of a node that died, queued again as soon as its presence is seen gone, instead of when their
 * jobs come back (the queue's ack wait, 1.5 s by default). Every node watches the others' presence locks
 * (core's db/presence.ts) a few times a second: a lock seen at one look and missing at the next is a node
 * whose session ended, and each unfinished debate it leased gets a copy of its job, named by the lease's
 * epoch so that the copies of every node watching collapse into one (the queue's dedupe window). The claim
 * that job leads to checks the holder's presence again, so a node whose session came back in the meantime
 * keeps its debates.
 *
 * A node judges nobody while its own presence is not held, and a look after that starts afresh: when the
 * database restarts, every lock goes at once and comes back one node at a time, and a node back first would
 * otherwise take every other node's debates. A node gone then is left to its jobs' redelivery, as before.
 */
export const presenceWatchWorker = EngineSettings.useSync(
  (
    settings,
  ): BackgroundWorker<Effect.Error<ReturnType<typeof look>>, Effect.Services<ReturnType<typeof look>>> => ({
    name: 'presence-watch',
    pass: look({ seen: null }),
    every: settings.presenceWatchMs,
    retries: 1,
  }),
);

/** What the watch keeps between looks: the holders present at the last one; null to start afresh. */
type Watch = { seen: ReadonlySet<number> | null };

/** One look: the holders gone since the last, and their debates queued again. */
const look = (watch: Watch) =>
  Effect.gen(function* () {
    const store = yield* LeaseStore;
    const looked = yield* Effect.result(store.presentHolders());
    // An outage loses the baseline (a restart ends every session); the other workers report it.
    const now = looked._tag === 'Success' && looked.success?.self ? looked.success : null;
    if (now === null) {
      watch.seen = null;
      return 0;
    }
    const { seen } = watch;
    const gone = seen === null ? [] : [...seen].filter((holder) => !now.holders.has(holder));
    const queued = gone.length > 0 ? yield* queueAgain(yield* store.orphansOf(gone)) : 0;
    // Only once the orphans are queued: a pass that failed before sees the same holders gone again.
    watch.seen = now.holders;
    (yield* EngineProbe).notice({ _tag: 'PresenceLooked', gone: gone.length, queued });
    return queued;
  });

/** A copy of each orphan's job, all sent at once: the first claims start while the rest are on their way. */
const queueAgain = (orphans: readonly Orphan[]) =>
  Effect.gen(function* () {
    const bus = yield* EngineBus;
    yield* Effect.tryPromise({
      try: () =>
        Promise.all(orphans.map(({ epoch, ...job }) => bus.jobs.enqueue(job, `holder-gone-${epoch}`))),
      catch: (cause) => new BusUnavailable({ cause }),
    });
    if (orphans.length > 0) {
      yield* logLine(
        'warn',
        `queued ${orphans.length} debate(s) again at once: their node's presence is gone`,
      );
    }
    return orphans.length;
  });
