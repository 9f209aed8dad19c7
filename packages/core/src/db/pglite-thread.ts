import { Worker } from 'node:worker_threads';
import type { PGlite, Results, Transaction } from '@electric-sql/pglite';
import { close, exec, fail, hear, listen, query, type Thread } from './pglite-thread-calls.ts';
import { transaction } from './pglite-thread-transaction.ts';
import type { ThreadMessage } from './pglite-thread-wire.ts';

/**
 * The embedded database on a thread of its own (pglite-thread-worker.ts), seen from the main thread as the
 * part of PGlite the ORM and kysely use: `query`, `exec`, `transaction`, `listen`, `close`. PGlite runs each
 * statement as synchronous WebAssembly; on the main thread the embedded default's API, engine node and
 * database took turns on one event loop, and under a stream of creates a simple read waited seconds behind
 * them (BENCHMARKS.md, "The embedded default under load"). Each call crosses as a message; rows and
 * parameters are structured-cloned (Date, Uint8Array, BigInt survive), errors arrive with their fields
 * (the SQLSTATE `code` the code reacts to). The calls' side of the main thread is in pglite-thread-calls.ts,
 * a transaction's in pglite-thread-transaction.ts, the messages in pglite-thread-wire.ts.
 */

/** The subset of PGlite the ORM's dialect, the migrations and the listener call. */
export type PgliteThread = {
  query: <T>(sql: string, params?: unknown[]) => Promise<Results<T>>;
  exec: (sql: string) => Promise<Results[]>;
  transaction: <T>(callback: (tx: Transaction) => Promise<T>) => Promise<T>;
  listen: (channel: string, onNotification: (payload: string) => void) => Promise<() => Promise<void>>;
  close: () => Promise<void>;
  readonly closed: boolean;
  readonly ready: boolean;
  waitReady: Promise<void>;
};

/** Starts the database thread; the PGlite it shows once its database is open. */
export async function openPgliteThread(dataDir: string, startParams: string[]): Promise<PgliteThread> {
  const thread = await startThread(dataDir, startParams);
  return {
    query: (sql, params) => query(thread, sql, params),
    exec: (sql) => exec(thread, sql),
    transaction: (callback) => transaction(thread, callback),
    listen: (channel, onNotification) => listen(thread, channel, onNotification),
    close: () => close(thread),
    get closed() {
      return thread.gone !== null;
    },
    ready: true,
    waitReady: Promise.resolve(),
  };
}

/** The worker, its database open: the thread's first word is that it is ready, or why it failed. */
async function startThread(dataDir: string, startParams: string[]): Promise<Thread> {
  const worker = new Worker(new URL('./pglite-thread-worker.ts', import.meta.url), {
    workerData: { dataDir, startParams },
  });
  const thread: Thread = {
    worker,
    ready: Promise.withResolvers<void>(),
    waiting: new Map(),
    listeners: new Map(),
    nextId: 1,
    nextTx: 1,
    gone: null,
    closing: false,
  };
  worker.on('message', (message: ThreadMessage) => hear(thread, message));
  worker.on('error', (error) => fail(thread, error));
  worker.on('exit', (code) => fail(thread, new Error(`the database thread exited (code ${code})`)));
  await thread.ready.promise;
  // The thread keeps the process alive only while a call waits on it, as PGlite in the main thread did:
  // a process with nothing else to do ends, one that awaits a statement does not end under it.
  worker.unref();
  return thread;
}

/** The thread as the PGlite instance MikroORM is handed (it calls only PgliteThread's members on it). */
export const asPglite = (thread: PgliteThread): PGlite => thread as unknown as PGlite;
