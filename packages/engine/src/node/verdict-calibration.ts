import type { DebateDomain, Verdict } from '@verdict/contracts';
import { calibrate, ownerCalibration } from '@verdict/core';
import { Deferred, Effect, Fiber } from 'effect';
import { logLine } from '../logging.ts';
import type { Classification } from '../runner/classify.ts';
import { EngineSettings, EngineStorage } from '../services.ts';
import { storageFailure } from '../store/errors.ts';
import { retryThroughBlips } from '../store/retry.ts';

/**
 * The judge's hook (run-debate.ts `calibrate`), once it answered: the verdict gets its owner's calibrated
 * confidence (the owner's stored curves, the domain's where it has one), before the machine hears of it, so
 * the verdict event and the stored verdict carry the same. The domain is asked beside the judge: it is waited
 * for here, when the judge was quicker, only if the owner has a domain curve it could choose. An owner below
 * the minimum of outcomes, or a database that stays down past the storage tolerance (logged), leaves the
 * verdict as the judge gave it: calibration never fails a debate.
 */
export const verdictCalibrator = (
  debate: { id: string; ownerId: string },
  asked: { judging: Deferred.Deferred<void>; classification: Fiber.Fiber<Classification> },
) =>
  Effect.gen(function* () {
    const { db } = yield* EngineStorage;
    const { storage } = yield* EngineSettings;
    const services = yield* Effect.context<never>();
    return (verdict: Verdict) =>
      Effect.gen(function* () {
        const model = yield* Effect.tryPromise({
          try: async () => (await ownerCalibration(db.em(), debate.ownerId))?.model ?? null,
          catch: storageFailure,
        }).pipe(
          retryThroughBlips(storage),
          Effect.catch((failure) =>
            Effect.as(
              logLine('warn', `debate ${debate.id}: verdict left uncalibrated (${failure._tag})`),
              null,
            ),
          ),
        );
        if (!model) return verdict;
        let domain: DebateDomain | null = null;
        if (Object.keys(model.domains).length > 0) {
          // A restored debate may have entered the judge without announcing it: the classification starts now.
          Deferred.doneUnsafe(asked.judging, Effect.void);
          domain = (yield* Fiber.join(asked.classification)).domain;
        }
        const found = calibrate(model, verdict.confidence, domain);
        return found ? { ...verdict, ...found } : verdict;
      }).pipe(Effect.provideContext(services));
  });
