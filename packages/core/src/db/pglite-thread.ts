import { Worker } from 'node:worker_threads';
import type { PGlite, Results, Transaction } from '@electric-sql/pglite';

/**
 * The embedded database on a thread of its own (pglite-thread-worker.ts), seen from the main thread as the
 * part of PGlite the ORM and kysely use: `query`, `exec`, `transaction`, `listen`, `close`. PGlite runs each
 * statement as synchronous WebAssembly; on the main thread the embedded default's API, engine node and
 * database took turns on one event loop, and under a stream of creates a simple read waited seconds behind
 * them (BENCHMARKS.md, "The embedded default under load"). Each call crosses as a message; rows and
 * parameters are structured-cloned (Date, Uint8Array, BigInt survive), errors arrive with their fields
 * (the SQLSTATE `code` the code reacts to).
 */

export type WireError = { message: string; name?: string; fields: Record<string, unknown> };

export type ThreadCall = { id: number } & (
  | { op: 'query'; sql: string; params: unknown[] | undefined; tx?: number | undefined }
  | { op: 'exec'; sql: string; tx?: number | undefined }
  | { op: 'begin'; tx: number }
  | { op: 'end'; tx: number; commit: boolean }
  | { op: 'listen'; channel: string }
  | { op: 'unlisten'; channel: string }
  | { op: 'close' }
);

export type ThreadMessage =
  | { kind: 'ready' }
  | { kind: 'failed'; error: WireError }
  | { kind: 'answer'; id: number; value?: unknown; error?: WireError }
  | { kind: 'notification'; channel: string; payload: string };

type Call = ThreadCall extends infer C ? (C extends ThreadCall ? Omit<C, 'id'> : never) : never;

const fromWire = (wire: WireError): Error =>
  Object.assign(new Error(wire.message), wire.name ? { name: wire.name } : {}, wire.fields);

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

export async function openPgliteThread(dataDir: string, startParams: string[]): Promise<PgliteThread> {
  const worker = new Worker(new URL('./pglite-thread-worker.ts', import.meta.url), {
    workerData: { dataDir, startParams },
  });
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  const listeners = new Map<string, Set<(payload: string) => void>>();
  let nextId = 1;
  let nextTx = 1;
  let gone: Error | null = null;
  let closing = false;

  const ready = Promise.withResolvers<void>();
  worker.on('message', (message: ThreadMessage) => {
    if (message.kind === 'ready') ready.resolve();
    else if (message.kind === 'failed') ready.reject(fromWire(message.error));
    else if (message.kind === 'notification') {
      for (const listener of listeners.get(message.channel) ?? []) listener(message.payload);
    } else {
      const call = waiting.get(message.id);
      waiting.delete(message.id);
      if (message.error) call?.reject(fromWire(message.error));
      else call?.resolve(message.value);
    }
  });
  // A thread that dies fails what waits on it and every later call: a 500, never a hang.
  const fail = (error: Error) => {
    gone ??= error;
    ready.reject(error);
    for (const call of waiting.values()) call.reject(error);
    waiting.clear();
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`the database thread exited (code ${code})`)));
  await ready.promise;
  // The thread keeps the process alive only while a call waits on it, as PGlite in the main thread did:
  // a process with nothing else to do ends, one that awaits a statement does not end under it.
  worker.unref();

  const call = <T>(request: Call): Promise<T> => {
    if (gone) return Promise.reject(gone);
    const id = nextId++;
    if (waiting.size === 0) worker.ref();
    const settled = () => {
      if (waiting.size === 0 && !closing) worker.unref();
    };
    return new Promise<T>((resolve, reject) => {
      waiting.set(id, {
        resolve: (value) => {
          resolve(value as T);
          settled();
        },
        reject: (error) => {
          reject(error);
          settled();
        },
      });
      try {
        worker.postMessage({ ...request, id });
      } catch (error) {
        // A parameter that cannot be cloned (a function, say): this call fails, the rest go on.
        const pending = waiting.get(id);
        waiting.delete(id);
        pending?.reject(error as Error);
      }
    });
  };
  const query = <T>(sql: string, params?: unknown[], tx?: number) =>
    call<Results<T>>({ op: 'query', sql, params, tx });
  const exec = (sql: string, tx?: number) => call<Results[]>({ op: 'exec', sql, tx });

  return {
    query: (sql, params) => query(sql, params),
    exec: (sql) => exec(sql),
    transaction: async (callback) => {
      const tx = nextTx++;
      await call({ op: 'begin', tx });
      let closed = false;
      const handle = {
        query: (sql: string, params?: unknown[]) => query(sql, params, tx),
        exec: (sql: string) => exec(sql, tx),
        sql: () => {
          throw new Error('tagged-template queries are not used across the database thread');
        },
        rollback: async () => {
          closed = true;
          await call({ op: 'end', tx, commit: false });
        },
        listen: () => {
          throw new Error('listen outside a transaction');
        },
        get closed() {
          return closed;
        },
      } as unknown as Transaction;
      try {
        const result = await callback(handle);
        if (!closed) await call({ op: 'end', tx, commit: true });
        return result;
      } catch (error) {
        if (!closed) await call({ op: 'end', tx, commit: false }).catch(() => {});
        throw error;
      } finally {
        closed = true;
      }
    },
    listen: async (channel, onNotification) => {
      let set = listeners.get(channel);
      if (!set) {
        set = new Set();
        listeners.set(channel, set);
        await call({ op: 'listen', channel });
      }
      set.add(onNotification);
      return async () => {
        set.delete(onNotification);
        if (set.size === 0 && listeners.get(channel) === set) {
          listeners.delete(channel);
          await call({ op: 'unlisten', channel });
        }
      };
    },
    close: async () => {
      if (gone) return;
      // Held until it has exited: a process with nothing else to do (a template's build) would end first.
      closing = true;
      worker.ref();
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      await call({ op: 'close' });
      await exited;
    },
    get closed() {
      return gone !== null;
    },
    ready: true,
    waitReady: Promise.resolve(),
  };
}

/** The thread as the PGlite instance MikroORM is handed (it calls only PgliteThread's members on it). */
export const asPglite = (thread: PgliteThread): PGlite => thread as unknown as PGlite;
