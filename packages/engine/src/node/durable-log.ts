import type { DebateEvent, DebateEventBody } from '@verdict/contracts';
import type { Clock } from '@verdict/core';
import { Deferred, Effect, Latch } from 'effect';
import { coreClock } from '../clock.ts';
import { replayKey } from '../replay/replay.ts';
import { EngineBus, EngineSettings } from '../services.ts';
import { AttemptLog } from '../store/attempt-log.ts';
import { AttemptOutcome } from '../store/attempt-outcome.ts';
import {
  BusUnavailable,
  LeaseLost,
  type PermanentFailure,
  type StorageUnavailable,
} from '../store/errors.ts';
import type { DebateOutcome, Lease, LogBatch } from '../store/records.ts';
import { retryThroughBlips } from '../store/retry.ts';
import { isFinalEvent, statusAfter } from './event-effects.ts';

/** Why the log stopped writing: an outage past the tolerance, a defect, or a lease another node took. */
export type LogFailure = StorageUnavailable | BusUnavailable | PermanentFailure | LeaseLost;

/** What the final write did: `stored` false when another holder or a delete got there first (nothing written). */
export type FinalWrite = {
  stored: boolean;
  /** False when the bus refused the final events past the tolerance after they were stored. */
  published: boolean;
};

export type DurableLog = {
  /** Numbers the event and queues it; it is stored, then published, in order, behind the caller. */
  readonly emit: (body: DebateEventBody) => void;
  /** The actor moved: its snapshot is written with the next batch (or on its own if no event comes). */
  readonly stateChanged: () => void;
  /**
   * Succeeds once everything emitted or changed so far is stored and published, except what a final event
   * holds back for `finish`; fails as the log did.
   */
  readonly flush: Effect.Effect<void, LogFailure>;
  /**
   * Stores the final state with everything not yet written (the events that announce the end, the last
   * snapshot) in one transaction, then publishes those events; the log writes nothing after it.
   */
  readonly finish: (outcome: DebateOutcome) => Effect.Effect<FinalWrite, LogFailure>;
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

/** The log's moving parts, shared by its writer fiber and its handle. */
type LogState = {
  seq: number;
  pending: DebateEvent[];
  /** Changes asked for (events and state moves) and changes stored: flush waits for the one to reach the other. */
  requested: number;
  committed: number;
  failure: LogFailure | null;
  /** A final event was emitted: batches wait for the final state, which `finish` stores with them. */
  holding: boolean;
  writing: boolean;
  finishing: { outcome: DebateOutcome; done: Deferred.Deferred<FinalWrite, LogFailure> } | null;
  finished: boolean;
  /** Flushes waiting for the changes up to `upTo` to be stored. */
  waiters: { upTo: number; done: Deferred.Deferred<void, LogFailure> }[];
  /** Opened by each change: the writer takes everything queued when it wakes. */
  wake: Latch.Latch;
};

const logState = (afterSeq: number, wake: Latch.Latch): LogState => ({
  seq: afterSeq,
  pending: [],
  requested: 0,
  committed: 0,
  failure: null,
  holding: false,
  writing: false,
  finishing: null,
  finished: false,
  waiters: [],
  wake,
});

/**
 * The durable, gap-free stream of one debate attempt plus its snapshots, written by one fiber in the job's
 * scope. Whatever accumulates while a write is in flight goes out as the next batch (group commit), so a busy
 * node makes few round trips. After a failure nothing more is written, so the stored log never has a hole;
 * the job is retried from the last stored state instead. A restored debate's re-run work emits events whose
 * replay key is already stored: those are dropped here.
 *
 * Every event is published after the statement that stores it commits, with what a read shows of it
 * (event-effects.ts): a batch sets the status its events announce, and from a final event on (verdict,
 * completion, failure) nothing is written until `finish` stores it all with the final state. Whatever was
 * stored and not published when a node died is published by the next node that takes the job: the next
 * holder's restore, or, for a finished debate, the job's redelivery (job/claim.ts).
 */
export const openDurableLog = Effect.fnUntraced(function* (start: DurableLogStart) {
  const clock = yield* coreClock;
  const st = logState(start.afterSeq, yield* Latch.make(false));
  const writeOnce = yield* logWriter(start, st);
  yield* Effect.forkScoped(
    Effect.whileLoop({
      while: () => st.failure === null && !st.finished,
      body: () => writeOnce,
      step: () => {},
    }),
  );
  return logHandle(start, st, clock);
});

/** Everything queued so far, as one batch with the actor's current state. */
const takeBatch = (start: DurableLogStart, st: LogState): LogBatch => {
  const events = st.pending;
  st.pending = [];
  const packed = start.snapshot();
  return {
    events,
    state: packed === null ? null : { packed, lastSeq: events.at(-1)?.seq ?? st.seq },
    status: statusAfter(events),
  };
};

/** Answers the flushes whose changes are stored, or that the log's failure or a held final event ends. */
const settle = (st: LogState) => {
  const { waiters } = st;
  for (let i = waiters.length - 1; i >= 0; i--) {
    const waiter = waiters[i] as (typeof waiters)[number];
    const done = st.failure !== null || waiter.upTo <= st.committed || (st.holding && !st.writing);
    if (!done) continue;
    waiters.splice(i, 1);
    Deferred.doneUnsafe(waiter.done, st.failure === null ? Effect.void : Effect.fail(st.failure));
  }
};

/**
 * The log stops for good: the job is told, and so is everything waiting on it, a `finish` asked for while
 * the failed batch was in flight included (it would otherwise wait forever, the job's lease renewed all
 * the while, and the debate would never move again).
 */
const fail = (start: DurableLogStart, st: LogState, cause: LogFailure) => {
  st.failure = cause;
  start.onFailure(cause);
  settle(st);
  if (st.finishing) Deferred.doneUnsafe(st.finishing.done, Effect.fail(cause));
};

/** The writer's one step: waits for a change, then writes what is queued (or the final state). */
const logWriter = (start: DurableLogStart, st: LogState) =>
  Effect.gen(function* () {
    const attemptLog = yield* AttemptLog;
    const attemptOutcome = yield* AttemptOutcome;
    const bus = yield* EngineBus;
    const { storage } = yield* EngineSettings;
    const { lease } = start;

    const publish = (batch: readonly DebateEvent[]) =>
      Effect.tryPromise({
        // In order over one connection; JetStream drops a repeat by its message id.
        try: () => Promise.all(batch.map((event) => bus.events.publish(event))),
        catch: (cause) => new BusUnavailable({ cause }),
      }).pipe(retryThroughBlips(storage));

    const writeBatch = Effect.gen(function* () {
      const upTo = st.requested;
      const batch = takeBatch(start, st);
      if (batch.events.length > 0 || batch.state !== null) {
        st.writing = true;
        const written = yield* Effect.result(
          attemptLog
            .persist(lease, batch)
            .pipe(retryThroughBlips(storage), Effect.andThen(publish(batch.events))),
        );
        st.writing = false;
        if (written._tag === 'Failure') return fail(start, st, written.failure);
      }
      st.committed = upTo;
      settle(st);
    });

    const writeFinal = (outcome: DebateOutcome, done: Deferred.Deferred<FinalWrite, LogFailure>) =>
      Effect.gen(function* () {
        const upTo = st.requested;
        const batch = takeBatch(start, st);
        st.finished = true;
        const written = yield* Effect.result(
          attemptOutcome.finish(lease, outcome, batch).pipe(retryThroughBlips(storage)),
        );
        if (written._tag === 'Failure') return fail(start, st, written.failure);
        if (!written.success) {
          // Nothing was written: whatever waits on this log learns it never will be.
          st.failure = new LeaseLost({ debateId: lease.debateId });
          settle(st);
          Deferred.doneUnsafe(done, Effect.succeed({ stored: false, published: false }));
          return;
        }
        // Stored is what counts: events the bus refused now are published again when the job comes back.
        const published = yield* Effect.result(publish(batch.events));
        st.committed = upTo;
        settle(st);
        Deferred.doneUnsafe(done, Effect.succeed({ stored: true, published: published._tag === 'Success' }));
      });

    return Effect.gen(function* () {
      yield* st.wake.await;
      // Woken asynchronously: everything emitted in the step that opened the latch joins this batch.
      st.wake.closeUnsafe();
      if (st.finishing) return yield* writeFinal(st.finishing.outcome, st.finishing.done);
      // Held for the final state, which only `finish` knows; a flush waiting for them is told so.
      if (st.holding) return settle(st);
      yield* writeBatch;
    });
  });

/** What the job holds: emit and note state changes (queued for the writer), flush, finish. */
const logHandle = (start: DurableLogStart, st: LogState, clock: Clock): DurableLog => {
  const { lease } = start;
  const seen = new Set(start.storedKeys);
  const changed = () => {
    st.requested += 1;
    st.wake.openUnsafe();
  };
  return {
    emit: (body) => {
      if (st.failure !== null || st.finished) return;
      const key = replayKey(body);
      if (key !== null) {
        if (seen.has(key)) return;
        seen.add(key);
      }
      if (isFinalEvent(body)) st.holding = true;
      st.pending.push({
        ...body,
        debateId: lease.debateId,
        attempt: lease.attempt,
        seq: ++st.seq,
        at: new Date(clock.now()).toISOString(),
      } as DebateEvent);
      changed();
    },
    stateChanged: changed,
    flush: Effect.suspend(() => {
      if (st.failure !== null) return Effect.fail(st.failure);
      if (st.committed >= st.requested || (st.holding && !st.writing)) return Effect.void;
      const done = Deferred.makeUnsafe<void, LogFailure>();
      st.waiters.push({ upTo: st.requested, done });
      return Deferred.await(done);
    }),
    finish: (outcome) =>
      Effect.suspend(() => {
        if (st.failure !== null) return Effect.fail(st.failure);
        if (!st.finishing) {
          st.finishing = { outcome, done: Deferred.makeUnsafe<FinalWrite, LogFailure>() };
          st.wake.openUnsafe();
        }
        return Deferred.await(st.finishing.done);
      }),
  };
};
