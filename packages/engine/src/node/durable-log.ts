import type { DebateEvent, DebateEventBody } from '@verdict/contracts';
import { Deferred, Effect, Latch } from 'effect';
import { replayKey } from '../replay/replay.ts';
import { EngineBus, EngineClock, EngineSettings } from '../services.ts';
import { DebateStore } from '../store/debate-store.ts';
import {
  BusUnavailable,
  type LeaseLost,
  type PermanentFailure,
  type StorageUnavailable,
} from '../store/errors.ts';
import type { Lease } from '../store/records.ts';
import { retryThroughBlips } from '../store/retry.ts';

/** Why the log stopped writing: an outage past the tolerance, a defect, or a lease another node took. */
export type LogFailure = StorageUnavailable | BusUnavailable | PermanentFailure | LeaseLost;

export type DurableLog = {
  /** Numbers the event and queues it; it is stored, then published, in order, behind the caller. */
  readonly emit: (body: DebateEventBody) => void;
  /** The actor moved: its snapshot is written with the next batch (or on its own if no event comes). */
  readonly stateChanged: () => void;
  /** Succeeds once everything emitted or changed so far is stored and published; fails as the log did. */
  readonly flush: Effect.Effect<void, LogFailure>;
};

export type DurableLogStart = {
  lease: Lease;
  /** The last stored seq of this attempt; numbering continues after it. */
  afterSeq: number;
  /** Replay keys of the events already stored (replay/replay.ts). */
  storedKeys: Iterable<string>;
  /** The packed state to store with a batch, or null while the actor has none worth keeping. */
  snapshot: () => string | null;
  /** Told once, when a write fails for good (the job's fatal signal). */
  onFailure: (failure: LogFailure) => void;
};

/**
 * The durable, gap-free stream of one debate attempt plus its snapshots, written by one fiber in the job's
 * scope. Whatever accumulates while a write is in flight goes out as the next batch (group commit), so a busy
 * node makes few round trips. After a failure nothing more is written, so the stored log never has a hole;
 * the job is retried from the last stored state instead. A restored debate's re-run work emits events whose
 * replay key is already stored: those are dropped here.
 */
export const openDurableLog = Effect.fn('Engine.openDurableLog')(function* (start: DurableLogStart) {
  const store = yield* DebateStore;
  const bus = yield* EngineBus;
  const clock = yield* EngineClock;
  const { storage } = yield* EngineSettings;
  const { lease } = start;

  const seen = new Set(start.storedKeys);
  const wake = yield* Latch.make(false);
  const waiters: { upTo: number; done: Deferred.Deferred<void, LogFailure> }[] = [];
  let seq = start.afterSeq;
  let pending: DebateEvent[] = [];
  /** Changes asked for (events and state moves) and changes stored: flush waits for the one to reach the other. */
  let requested = 0;
  let committed = 0;
  let failure: LogFailure | null = null;

  const publish = (batch: readonly DebateEvent[]) =>
    Effect.tryPromise({
      // In order over one connection; JetStream drops a repeat by its message id.
      try: () => Promise.all(batch.map((event) => bus.events.publish(event))),
      catch: (cause) => new BusUnavailable({ cause }),
    });

  const commit = (batch: readonly DebateEvent[], packed: string | null) =>
    store
      .persist(lease, batch, packed === null ? null : { packed, lastSeq: batch.at(-1)?.seq ?? seq })
      .pipe(retryThroughBlips(storage), Effect.andThen(publish(batch).pipe(retryThroughBlips(storage))));

  const settle = () => {
    for (let i = waiters.length - 1; i >= 0; i--) {
      const waiter = waiters[i] as (typeof waiters)[number];
      if (failure === null && waiter.upTo > committed) continue;
      waiters.splice(i, 1);
      Deferred.doneUnsafe(waiter.done, failure === null ? Effect.void : Effect.fail(failure));
    }
  };

  const writeOnce = Effect.gen(function* () {
    yield* wake.await;
    // Woken asynchronously: everything emitted in the step that opened the latch joins this batch.
    wake.closeUnsafe();
    const upTo = requested;
    const batch = pending;
    pending = [];
    const packed = start.snapshot();
    if (batch.length > 0 || packed !== null) {
      const written = yield* Effect.result(commit(batch, packed));
      if (written._tag === 'Failure') {
        failure = written.failure;
        start.onFailure(written.failure);
        settle();
        return;
      }
    }
    committed = upTo;
    settle();
  });

  yield* Effect.forkScoped(
    Effect.whileLoop({ while: () => failure === null, body: () => writeOnce, step: () => {} }),
  );

  const changed = () => {
    requested += 1;
    wake.openUnsafe();
  };

  const log: DurableLog = {
    emit: (body) => {
      if (failure !== null) return;
      const key = replayKey(body);
      if (key !== null) {
        if (seen.has(key)) return;
        seen.add(key);
      }
      pending.push({
        ...body,
        debateId: lease.debateId,
        attempt: lease.attempt,
        seq: ++seq,
        at: new Date(clock.now()).toISOString(),
      } as DebateEvent);
      changed();
    },
    stateChanged: changed,
    flush: Effect.suspend(() => {
      if (failure !== null) return Effect.fail(failure);
      if (committed >= requested) return Effect.void;
      const done = Deferred.makeUnsafe<void, LogFailure>();
      waiters.push({ upTo: requested, done });
      return Deferred.await(done);
    }),
  };
  return log;
});
