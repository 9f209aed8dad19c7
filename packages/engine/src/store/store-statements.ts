import type { BillingTables, DebateTables, WebhookTables } from '@verdict/core';
import { Effect } from 'effect';
import { sql } from 'kysely';
import { type PermanentFailure, type StorageUnavailable, storageFailure } from './errors.ts';
import type { Lease } from './records.ts';

/** What the engine's statements touch: a debate's rows, the credits its end settles, the webhook it queues. */
export type StoreTables = DebateTables & BillingTables & WebhookTables;

/** How a statement of the engine's store fails: a blip, or a defect. */
export type StoreFailure = StorageUnavailable | PermanentFailure;

/** The statuses a debate can still be run in. */
export const UNFINISHED = ['pending', 'running', 'paused'] as const;

/** A statement as an Effect, its failure typed (errors.ts). */
export const tryStorage = <A>(run: () => Promise<A>): Effect.Effect<A, StoreFailure> =>
  Effect.tryPromise({ try: run, catch: storageFailure });

/** The fence: the debate, in this attempt, still under the epoch this node claimed. */
export const fence = (lease: Lease) =>
  sql<boolean>`id = ${lease.debateId} and attempt = ${lease.attempt} and lease_epoch = ${lease.epoch}`;
