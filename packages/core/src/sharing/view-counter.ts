import { sql } from 'kysely';
import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import type { DebateTables } from '../debates/tables.ts';

export type ViewCounter = {
  /** Counts one view; what the debate's count will be once this process's views are written. */
  count: (debateId: string) => number;
  pending: (debateId: string) => number;
  /** Writes the views counted so far: one statement for all debates. */
  flush: () => Promise<void>;
  close: () => Promise<void>;
};

/**
 * Views of shared debates, added up in memory and written once a second, so a popular link costs no row
 * lock per read. A crash loses at most the last second's views (a popularity signal, not money); a clean
 * stop writes them.
 */
export function createViewCounter(
  db: Database,
  onError: (error: unknown) => void,
  intervalMs = 1000,
): ViewCounter {
  let counts = new Map<string, number>();
  let flushing: Promise<void> = Promise.resolve();

  const write = async (batch: Map<string, number>) => {
    if (batch.size === 0) return;
    const increments = [...batch].map(([id, n]) => sql`when ${id}::uuid then ${n}::int`);
    await query<DebateTables>(db.em())
      .updateTable('debates')
      .set({ view_count: sql<number>`view_count + case id ${sql.join(increments, sql` `)} end` })
      .where('id', 'in', [...batch.keys()])
      .execute();
  };

  const flush = () => {
    const batch = counts;
    counts = new Map();
    flushing = flushing.then(() =>
      write(batch).catch((error: unknown) => {
        // Put them back: the next flush tries again.
        for (const [id, n] of batch) counts.set(id, (counts.get(id) ?? 0) + n);
        onError(error);
      }),
    );
    return flushing;
  };

  const timer = setInterval(() => void flush(), intervalMs);
  timer.unref();

  return {
    count: (debateId) => {
      const n = (counts.get(debateId) ?? 0) + 1;
      counts.set(debateId, n);
      return n;
    },
    pending: (debateId) => counts.get(debateId) ?? 0,
    flush,
    close: async () => {
      clearInterval(timer);
      await flush();
    },
  };
}
