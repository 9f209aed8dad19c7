import { type Embedder, embedCompletedDebates } from '@verdict/core';
import { Effect } from 'effect';
import { EngineLog, EngineStorage } from '../services.ts';
import { storageFailure } from '../store/errors.ts';
import type { BackgroundWorker } from './background-worker.ts';

/** Debates claimed per pass: each is one embedding call inside the claiming transaction. */
const BATCH = 20;

/**
 * One pass: embeds the debates that completed since (core's similar/embed-completed.ts). A debate whose
 * embedding call fails stays due and is tried again next pass; the log says why.
 */
export const embeddingPass = (embedder: Embedder) =>
  Effect.gen(function* () {
    const { db } = yield* EngineStorage;
    const { log } = yield* EngineLog;
    const pass = yield* Effect.tryPromise({
      try: () =>
        embedCompletedDebates(db, embedder, BATCH, (err, debateId) =>
          log('warn', `debate ${debateId}: embedding failed; it is tried again next pass`, { err }),
        ),
      catch: storageFailure,
    });
    return pass.embedded;
  });

/** The embedding worker as a background worker of every engine node, when the deployment can embed. */
export const embeddingWorker = (
  embedder: Embedder,
  every: number,
): BackgroundWorker<Effect.Error<ReturnType<typeof embeddingPass>>, EngineStorage | EngineLog> => ({
  name: 'embeddings',
  pass: embeddingPass(embedder),
  every,
});
