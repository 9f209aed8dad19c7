import { sql } from 'kysely';
import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import type { DebateTables } from '../debates/tables.ts';
import { createBatchedCounter } from '../shared/batched-counter.ts';

export type ViewCounter = {
  /** Counts one view; what the debate's count will be once this process's views are written. */
  count: (debateId: string) => number;
  /** Writes the views counted so far: one statement for all debates. */
  flush: () => Promise<void>;
  close: () => Promise<void>;
};

/**
 * Views of shared debates, added up in memory and written once a second (shared/batched-counter.ts), so a
 * popular link costs no row lock per read. A crash loses at most the last second's views (a popularity
 * signal, not money); a clean stop writes them.
 */
export function createViewCounter(
  db: Database,
  onError: (error: unknown) => void,
  intervalMs = 1000,
): ViewCounter {
  const counter = createBatchedCounter<string>({
    identify: (debateId) => debateId,
    onError,
    intervalMs,
    write: async (batch) => {
      const increments = batch.map(({ key, n }) => sql`when ${key}::uuid then ${n}::int`);
      await query<DebateTables>(db.em())
        .updateTable('debates')
        .set({ view_count: sql<number>`view_count + case id ${sql.join(increments, sql` `)} end` })
        .where(
          'id',
          'in',
          batch.map(({ key }) => key),
        )
        .execute();
    },
  });
  return { count: (debateId) => counter.add(debateId), flush: counter.flush, close: counter.close };
}
