import { refreshDueScores } from '@verdict/core';
import { Effect } from 'effect';
import { EngineSettings, EngineStorage } from '../services.ts';
import { storageFailure } from '../store/errors.ts';
import type { BackgroundWorker } from './background-worker.ts';

/** Outcome events taken per transaction; a backlog drains one batch after another within a pass. */
const BATCH = 200;
/** Batches per pass at most, so one pass cannot hold the worker's fiber for long. */
const MAX_BATCHES = 20;

/**
 * One pass: takes unscored outcome events from the outbox (debate completed, outcome recorded or updated),
 * batch after batch, refreshing the score of each user they name (core's outcomes/scores.ts, which claims
 * them with `skip locked` and stamps them in the same transaction). Returns how many events it took.
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
