import type { ReadDatabase } from './open-replica.ts';
import type { ReadRouting } from './read-routing.ts';

/**
 * Runs a read-heavy read for `userId` where read routing sends it (the replica when it shows the caller's
 * writes, else the primary), or on `db` when nothing routes reads (a feature built alone, in a test).
 */
export const readAs = <T>(
  { db, reads }: { db: ReadDatabase; reads?: ReadRouting | undefined },
  userId: string,
  read: (db: ReadDatabase) => Promise<T>,
  atLeast: bigint | null = null,
): Promise<T> => (reads ? reads.read(userId, read, atLeast) : read(db));
