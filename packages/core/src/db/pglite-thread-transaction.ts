import type { Transaction } from '@electric-sql/pglite';
import { call, exec, query, type Thread } from './pglite-thread-calls.ts';

/**
 * `callback` in a transaction of its own on the thread, its statements numbered with it: committed when
 * the callback returns, rolled back when it throws (unless it rolled back itself).
 */
export async function transaction<T>(thread: Thread, callback: (tx: Transaction) => Promise<T>): Promise<T> {
  const tx = thread.nextTx++;
  await call(thread, { op: 'begin', tx });
  let closed = false;
  const handle = {
    query: (sql: string, params?: unknown[]) => query(thread, sql, params, tx),
    exec: (sql: string) => exec(thread, sql, tx),
    sql: () => {
      throw new Error('tagged-template queries are not used across the database thread');
    },
    rollback: async () => {
      closed = true;
      await call(thread, { op: 'end', tx, commit: false });
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
    if (!closed) await call(thread, { op: 'end', tx, commit: true });
    return result;
  } catch (error) {
    if (!closed) await call(thread, { op: 'end', tx, commit: false }).catch(() => {});
    throw error;
  } finally {
    closed = true;
  }
}
