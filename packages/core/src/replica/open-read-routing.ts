import type { Config } from '../config/config.ts';
import type { Database } from '../db/orm.ts';
import { entities } from '../entities.ts';
import { type Clock, systemClock } from '../shared/clock.ts';
import { openReplica } from './open-replica.ts';
import { primaryOnly, type ReadRouting, replicaRouting } from './read-routing.ts';
import { checkReplica } from './replica-check.ts';

export type ReadRoutingOptions = {
  clock?: Clock;
  /** Start-up lines and the replica answering again. */
  log?: ((message: string) => void) | undefined;
  /** The replica no longer answering (with why). */
  onError?: (error: unknown) => void;
};

/**
 * Read routing for a process: on the replica DATABASE_REPLICA_URL names (checked to be a standby of
 * DATABASE_URL's cluster, else the start is refused), or on the primary alone (no replica, or embedded).
 */
export async function openReadRouting(
  config: Pick<Config, 'database' | 'readReplica'>,
  primary: Database,
  options: ReadRoutingOptions = {},
): Promise<ReadRouting> {
  const { readReplica } = config;
  if (!readReplica || config.database.kind !== 'postgres') return primaryOnly(primary);
  const replica = await openReplica(readReplica.url, config.database.schema, entities);
  try {
    const warning = await checkReplica(primary, replica, readReplica.url);
    if (warning) options.onError?.(new Error(warning));
    const clock = options.clock ?? systemClock;
    return await replicaRouting({
      primary,
      replica,
      maxLagMs: readReplica.maxLagMs,
      now: () => clock.now(),
      report: (message, cause) =>
        cause === undefined ? options.log?.(message) : options.onError?.(new Error(message, { cause })),
    });
  } catch (error) {
    await replica.close();
    throw error;
  }
}
