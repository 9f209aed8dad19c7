import { addDebateViews } from '../debates/debate-record.ts';
import type { CoreResources } from '../resources.ts';
import { createBatchedCounter } from '../shared/batched-counter.ts';

/** What the view counter runs on: `onError` hears of a batch that failed to be written. */
export type ViewCounterResources = Pick<CoreResources, 'db' | 'onError'> & {
  /** How often the counted views are written; a second unless told. */
  intervalMs?: number;
};

export type ViewCounter = {
  /** Counts one view; what the debate's count will be once this process's views are written. */
  count: (debateId: string) => number;
  /**
   * Runs `read` while no batch of views is being written: a read of the stored count plus `count`'s answer
   * then counts every view once (a batch in flight is in neither).
   */
  betweenWrites: <T>(read: () => Promise<T>) => Promise<T>;
  /** Writes the views counted so far: one statement for all debates. */
  flush: () => Promise<void>;
  close: () => Promise<void>;
};

/**
 * Views of shared debates, added up in memory and written once a second (shared/batched-counter.ts), so a
 * popular link costs no row lock per read. A crash loses at most the last second's views (a popularity
 * signal, not money); a clean stop writes them.
 */
export function createViewCounter({ db, onError, intervalMs = 1000 }: ViewCounterResources): ViewCounter {
  const counter = createBatchedCounter<string>({
    identify: (debateId) => debateId,
    onError,
    intervalMs,
    write: (batch) =>
      addDebateViews(
        db.em(),
        batch.map(({ key, n }) => ({ debateId: key, n })),
      ),
  });
  return {
    count: (debateId) => counter.add(debateId),
    betweenWrites: counter.betweenWrites,
    flush: counter.flush,
    close: counter.close,
  };
}
