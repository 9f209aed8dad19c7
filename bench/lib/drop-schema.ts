import type { Database } from '../../packages/core/src/db/orm.ts';

/**
 * Drops a bench's PostgreSQL schema with everything in it. Retried: a request cut off by the server's
 * stop, or a flush of the core's (views, usage) running as the schema goes, may hold a lock the drop needs
 * in the other order; PostgreSQL then aborts one side as a deadlock, and the drop goes through on a later try.
 */
export async function dropBenchSchema(db: Pick<Database, 'execute'>, schema: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await db.execute(`drop schema if exists "${schema}" cascade`);
      return;
    } catch (err) {
      if (attempt >= 5) throw err;
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
  }
}
