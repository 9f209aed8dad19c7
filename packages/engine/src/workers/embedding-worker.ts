import {
  dropStaleEmbeddings,
  EMBEDDING_BACKLOG_DAYS,
  type Embedder,
  embedCompletedDebates,
} from '@verdict/core';
import { Effect } from 'effect';
import { coreClock } from '../clock.ts';
import { currentLogFn } from '../logging.ts';
import { EngineStorage } from '../services.ts';
import { storageFailure } from '../store/errors.ts';
import type { BackgroundWorker } from './background-worker.ts';

/** Debates claimed per pass; their calls run a few at a time, outside any transaction. */
const BATCH = 20;

/**
 * One pass: embeds the debates that completed since (core's similar/embed-completed.ts). A debate whose
 * embedding call fails is due again after a back-off, and given up on after the last try; the log says
 * which.
 */
export const embeddingPass = (embedder: Embedder) =>
  Effect.gen(function* () {
    const { db } = yield* EngineStorage;
    const log = yield* currentLogFn;
    const clock = yield* coreClock;
    const pass = yield* Effect.tryPromise({
      try: () =>
        embedCompletedDebates(db, embedder, clock, BATCH, ({ debateId, attempt, retryAt, error }) =>
          retryAt === null
            ? log('error', `debate ${debateId}: embedding failed ${attempt} times; it is given up on`, {
                err: error,
              })
            : log('warn', `debate ${debateId}: embedding failed (try ${attempt}); tried again later`, {
                err: error,
                retryAt: new Date(retryAt).toISOString(),
              }),
        ),
      catch: storageFailure,
    });
    return pass.embedded;
  });

/** The embedding worker as a background worker of every engine node, when the deployment can embed. */
export const embeddingWorker = (
  embedder: Embedder,
  every: number,
): BackgroundWorker<Effect.Error<ReturnType<typeof embeddingPass>>, EngineStorage> => ({
  name: 'embeddings',
  pass: embeddingPass(embedder),
  every,
});

/** Queued debates dropped per statement, and statements per pass at most, where nothing embeds. */
const DROP_BATCH = 1000;
const DROP_BATCHES = 20;
/** How often a node that cannot embed drops what has waited too long. */
const DROP_EVERY_MS = 10 * 60_000;

/**
 * One pass of a node that cannot embed: drops queued debates older than EMBEDDING_BACKLOG_DAYS, batch after
 * batch while batches come full (core's similar/embedding-queue.ts), so the queue nothing consumes stays
 * bounded. Returns how many it dropped.
 */
export const embeddingBacklogPass = Effect.gen(function* () {
  const { db } = yield* EngineStorage;
  const clock = yield* coreClock;
  const olderThanMs = EMBEDDING_BACKLOG_DAYS * 86_400_000;
  let dropped = 0;
  for (let i = 0; i < DROP_BATCHES; i++) {
    const batch = yield* Effect.tryPromise({
      try: () => dropStaleEmbeddings(db, clock, { olderThanMs, batch: DROP_BATCH }),
      catch: storageFailure,
    });
    dropped += batch;
    if (batch < DROP_BATCH) break;
  }
  return dropped;
});

/** The embedding queue's retention, as a background worker of every engine node that cannot embed. */
export const embeddingBacklogWorker = (
  every = DROP_EVERY_MS,
): BackgroundWorker<Effect.Error<typeof embeddingBacklogPass>, EngineStorage> => ({
  name: 'embedding-backlog',
  pass: embeddingBacklogPass,
  every,
});
