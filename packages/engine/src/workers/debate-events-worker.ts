import { maintainDebateEvents } from '@verdict/core';
import { Effect } from 'effect';
import { coreClock } from '../clock.ts';
import { logLine } from '../logging.ts';
import { EngineStorage } from '../services.ts';
import { storageFailure } from '../store/errors.ts';
import { type BackgroundWorker, superviseWorker } from './background-worker.ts';

/** Partitions are months and retention is days: looking once an hour is early enough for both. */
const EVERY_MS = 3_600_000;

/** Months made ahead of the current one: three months of the job not running before a write misses its month. */
const MONTHS_AHEAD = 3;

/**
 * The maintenance of `debate_events` (core's debates/transcripts/), as a background worker of every engine
 * node: each pass makes the months ahead and, with a retention, compacts the debates of partitions past it
 * and drops those partitions. Nodes passing at once skip a change another is making (an advisory lock).
 */
export const debateEventsWorker = (
  retentionDays: number | null,
  everyMs = EVERY_MS,
): BackgroundWorker<unknown, EngineStorage> => ({
  name: 'debate-events',
  pass: Effect.gen(function* () {
    const { db } = yield* EngineStorage;
    const clock = yield* coreClock;
    const pass = yield* Effect.tryPromise({
      try: () => maintainDebateEvents(db, clock, { monthsAhead: MONTHS_AHEAD, retentionDays }),
      catch: storageFailure,
    });
    return pass.made.length + pass.compacted + pass.dropped.length;
  }),
  every: everyMs,
});

/**
 * The worker supervised, and one pass at start too: a process that never stays up for a period (an embedded
 * one, opened now and then) still makes the months ahead and applies retention.
 */
export const maintainDebateEventsOnNode = (retentionDays: number | null) =>
  Effect.gen(function* () {
    const worker = debateEventsWorker(retentionDays);
    yield* superviseWorker(worker);
    yield* Effect.forkScoped(
      worker.pass.pipe(
        Effect.catch((err) => logLine('error', 'debate events maintenance failed at start', { err })),
      ),
    );
  });
