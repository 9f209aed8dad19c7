import { refreshDueScores } from '@verdict/core';
import { Effect } from 'effect';
import { EngineSettings, EngineStorage } from '../services.ts';
import { storageFailure } from '../store/errors.ts';
import type { BackgroundWorker } from './background-worker.ts';

/** Queued refreshes taken per transaction; a backlog drains one batch after another within a pass. */
const BATCH = 200;
/** Batches per pass at most, so one pass cannot hold the worker's fiber for long. */
const MAX_BATCHES = 20;

/**
 * One pass: takes queued score refreshes (a debate completed, an outcome recorded or corrected), batch after
 * batch, refreshing the score and calibration curves of each user they name, and the global curve when it is
 * stale (core's outcomes/scores.ts, which claims them from score_queue with `skip locked` and deletes them in
 * the same transaction). Returns how many it took.
 */
export const scorePass = Effect.gen(function* () {
  const { db } = yield* EngineStorage;
  let taken = 0;
  for (let i = 0; i < MAX_BATCHES; i++) {
    const batch = yield* Effect.tryPromise({ try: () => refreshDueScores(db, BATCH), catch: storageFailure });
    taken += batch;
    if (batch < BATCH) break;
  }
  return taken;
});

/** The score worker as a background worker of every engine node: scores follow outcomes within a period. */
export const scoreWorker = EngineSettings.useSync(
  (settings): BackgroundWorker<Effect.Error<typeof scorePass>, Effect.Services<typeof scorePass>> => ({
    name: 'scores',
    pass: scorePass,
    every: settings.scoreIntervalMs,
  }),
);
