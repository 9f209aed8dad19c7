import { join } from 'node:path';
import { type BlobStore, databaseBlobStore, filesystemBlobStore } from '../attachments/blob-store.ts';
import { memoryBus } from '../bus/memory.ts';
import { natsBus } from '../bus/nats-on-demand.ts';
import type { Bus } from '../bus/ports.ts';
import type { Config } from '../config/config.ts';
import { openServiceDatabase } from '../database.ts';
import type { Database } from '../db/orm.ts';
import { type CounterStore, memoryCounterStore, postgresCounterStore } from '../ratelimit/counter-store.ts';
import { openReadRouting } from '../replica/open-read-routing.ts';
import type { ReadRouting } from '../replica/read-routing.ts';
import { type Clock, systemClock } from '../shared/clock.ts';
import type { CoreOptions } from './core-options.ts';

/** What the domain services of a process are built on: its clock, database, bus, counters and blob store. */
export type Adapters = {
  clock: Clock;
  onError: (err: unknown) => void;
  db: Database;
  /** Where the read-heavy reads go: a streaming replica (DATABASE_REPLICA_URL) or the primary. */
  reads: ReadRouting;
  bus: Bus;
  counters: CounterStore;
  blobs: BlobStore;
  /** Closes what this opened, the database last. */
  close: () => Promise<void>;
};

/**
 * Opens the adapters the configuration names: PostgreSQL or embedded PGlite, NATS or the in-process bus,
 * counters in the database (so rate limits hold across API processes) or in memory, attachment bytes in
 * rows or as files beside the embedded database. A bus that cannot connect closes the database again.
 */
export async function openAdapters(config: Config, options: CoreOptions): Promise<Adapters> {
  const clock = options.clock ?? systemClock;
  const onError = options.onBackgroundError ?? (() => {});
  const db = await openServiceDatabase(config.database, {
    log: options.log,
    lock: options.dataDirLock,
    lockRole: options.lockRole,
    templates: config.pgliteTemplates,
    transactionTimeoutMs: config.transactionTimeoutMs,
    onTransactionTimeout: options.onTransactionTimeout,
  });
  const reads = await openReadRouting(config, db, { clock, log: options.log, onError }).catch(
    async (error: unknown) => {
      await db.close();
      throw error;
    },
  );
  const bus = await openBus(config, onError).catch(async (error: unknown) => {
    await reads.close();
    await db.close();
    throw error;
  });
  const useDatabaseCounters =
    (options.counters ?? (config.database.kind === 'postgres' ? 'database' : 'memory')) === 'database';
  const counters = useDatabaseCounters ? postgresCounterStore(db, onError) : memoryCounterStore(clock.now);
  // Embedded mode keeps attachment bytes as files beside its database; PostgreSQL keeps them in rows, which
  // every API process and engine node reads alike (attachments/blob-store.ts).
  const fileBlobs =
    config.database.kind === 'pglite'
      ? filesystemBlobStore(join(config.database.dataDir, 'attachments'), db, onError)
      : null;
  return {
    clock,
    onError,
    db,
    reads,
    bus,
    counters,
    blobs: fileBlobs ?? databaseBlobStore(db),
    close: async () => {
      fileBlobs?.close();
      await counters.close();
      await bus.close();
      await reads.close();
      await db.close();
    },
  };
}

const openBus = async (config: Config, onError: (err: unknown) => void): Promise<Bus> =>
  config.nats.kind === 'nats'
    ? natsBus({
        servers: config.nats.servers,
        streamReplicas: config.nats.streamReplicas,
        prefix: config.natsPrefix,
        jobAckWaitMs: config.engine.jobAckWaitMs,
        onTrouble: (message, cause) => onError(new Error(`bus: ${message}`, { cause })),
      })
    : memoryBus();
