import { setTimeout as sleep } from 'node:timers/promises';
import { hasSqlState, SQL_STATE } from './sql-state.ts';

/** Runs of a transaction in all: the first and two more after a deadlock. */
const RUNS = 3;

/**
 * Runs `transaction` again when PostgreSQL rolled it back as a deadlock's victim (40P01), after a short
 * random pause so the two sides do not meet again in step; any other failure, or a third deadlock, is
 * thrown. For transactions that lock many rows another writer may hold in its own order (a workspace's
 * deletion locks its debates while their engines still write them): PostgreSQL breaks such a cycle by
 * aborting one side, and its documentation asks the application to retry that side. The transaction must
 * read what it decides on inside itself, so a second run decides afresh.
 */
export async function retryingDeadlocks<T>(transaction: () => Promise<T>): Promise<T> {
  for (let run = 1; ; run++) {
    try {
      return await transaction();
    } catch (error) {
      if (run >= RUNS || !hasSqlState(error, SQL_STATE.deadlockDetected)) throw error;
      await sleep(20 + Math.random() * 80 * run);
    }
  }
}
