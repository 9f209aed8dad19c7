/**
 * The worker thread that holds the embedded database (pglite-thread.ts): PGlite runs PostgreSQL as
 * synchronous WebAssembly, so on the main thread every statement stopped the API and the engine node for as
 * long as it ran. Here it answers the main thread's calls one message at a time in arrival order; PGlite
 * itself serialises statements and keeps a transaction exclusive until it ends.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import type { ThreadCall, ThreadMessage, WireError } from './pglite-thread-wire.ts';

const port = parentPort;
if (!port) throw new Error('pglite-thread-worker.ts runs as a worker thread');
const { dataDir, startParams } = workerData as { dataDir: string; startParams: string[] };

/** What an error carries across the thread boundary: its message and own fields (SQLSTATE `code` …). */
function toWire(error: unknown): WireError {
  if (!(error instanceof Error)) return { message: String(error), fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    if (value === undefined || typeof value === 'function') continue;
    fields[key] = value;
  }
  return { message: error.message, name: error.name, fields };
}

const post = (message: ThreadMessage) => port.postMessage(message);

/** A transaction the main thread has open: ended by its `end` call. */
type OpenTransaction = { tx: Transaction; end: (commit: boolean) => void; done: Promise<unknown> };
const ROLLBACK = Symbol('rollback');

let pglite: PGlite;
try {
  // pgvector is loaded so that migration 0017 stores embeddings as `vector` (similar/vector-storage.ts).
  pglite = await PGlite.create({ dataDir, startParams, extensions: { vector } });
} catch (error) {
  post({ kind: 'failed', error: toWire(error) });
  port.close();
  throw error;
}

const transactions = new Map<number, OpenTransaction>();
const listening = new Map<string, () => Promise<void>>();
const target = (tx: number | undefined) => {
  if (tx === undefined) return pglite;
  const open = transactions.get(tx);
  if (!open) throw new Error(`transaction ${tx} is not open`);
  return open.tx;
};

async function answer(call: ThreadCall): Promise<unknown> {
  switch (call.op) {
    case 'query': {
      const result = await target(call.tx).query(call.sql, call.params, { rowMode: 'object' });
      return { rows: result.rows, fields: result.fields, affectedRows: result.affectedRows };
    }
    case 'exec':
      return (await target(call.tx).exec(call.sql)).map((result) => ({
        rows: result.rows,
        fields: result.fields,
        affectedRows: result.affectedRows,
      }));
    case 'begin': {
      const begun = Promise.withResolvers<void>();
      const ended = Promise.withResolvers<void>();
      const done = pglite.transaction(async (tx) => {
        transactions.set(call.tx, {
          tx,
          end: (commit) => (commit ? ended.resolve() : ended.reject(ROLLBACK)),
          done,
        });
        begun.resolve();
        await ended.promise;
      });
      // A BEGIN that failed rejects `done` before the callback ran.
      await Promise.race([begun.promise, done]);
      return null;
    }
    case 'end': {
      const open = transactions.get(call.tx);
      if (!open) throw new Error(`transaction ${call.tx} is not open`);
      transactions.delete(call.tx);
      open.end(call.commit);
      try {
        await open.done;
      } catch (error) {
        if (error !== ROLLBACK) throw error;
      }
      return null;
    }
    case 'listen': {
      if (!listening.has(call.channel)) {
        const unlisten = await pglite.listen(call.channel, (payload) =>
          post({ kind: 'notification', channel: call.channel, payload }),
        );
        listening.set(call.channel, unlisten);
      }
      return null;
    }
    case 'unlisten': {
      const unlisten = listening.get(call.channel);
      listening.delete(call.channel);
      await unlisten?.();
      return null;
    }
    case 'close':
      await pglite.close();
      return null;
  }
}

port.on('message', (call: ThreadCall) => {
  answer(call).then(
    (value) => {
      post({ kind: 'answer', id: call.id, value });
      if (call.op === 'close') port.close();
    },
    (error: unknown) => post({ kind: 'answer', id: call.id, error: toWire(error) }),
  );
});
post({ kind: 'ready' });
