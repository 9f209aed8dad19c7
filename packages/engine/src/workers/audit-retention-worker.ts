import type { Plan } from '@verdict/contracts';
import { pruneAuditTrails } from '@verdict/core';
import { Effect } from 'effect';
import { coreClock } from '../clock.ts';
import { EngineStorage } from '../services.ts';
import { storageFailure } from '../store/errors.ts';
import type { BackgroundWorker } from './background-worker.ts';

/** Retention is in days: looking once an hour removes an entry at most an hour after it is due. */
const EVERY_MS = 3_600_000;

/**
 * Audit retention, as a background worker of every engine node: each pass removes, chain by chain, the
 * entries older than the owner's plan keeps, leaving a checkpoint (core's audit-trails/prune-audit-trails.ts).
 * Nodes passing at once skip a chain another is pruning (its head is locked), so none is cut twice.
 */
export const auditRetentionWorker = (
  retentionDays: Record<Plan, number>,
  everyMs = EVERY_MS,
): BackgroundWorker<unknown, EngineStorage> => ({
  name: 'audit-retention',
  pass: Effect.gen(function* () {
    const { db } = yield* EngineStorage;
    const clock = yield* coreClock;
    return yield* Effect.tryPromise({
      try: () => pruneAuditTrails(db, clock, retentionDays),
      catch: storageFailure,
    });
  }),
  every: everyMs,
});
