import { PGlite } from '@electric-sql/pglite';
import type { Configuration } from '@mikro-orm/core';
import { MikroORM, PgliteConnection, PgliteDriver } from '@mikro-orm/pglite';
import type { PGliteDialect } from 'kysely';
import type { Listen } from './listener.ts';
import { type Entities, ormOptions } from './orm-options.ts';
import { asPglite, openPgliteThread } from './pglite-thread.ts';
import { GuardedEntityManager, guardDialect, type TransactionGuardOptions } from './transaction-guard.ts';

/**
 * PGlite zeroes all of PostgreSQL's shared memory at every open: with the defaults (128 MB of buffers,
 * structures for 100 connections) that was two thirds of a second of CPU here. PGlite has one connection;
 * one service's database is served as well from 16 MB of buffers and the OS page cache. Locks per
 * transaction are raised so that the lock table keeps room for a large migration.
 */
const START_PARAMS = [
  ...PGlite.defaultStartParams,
  ...['-c', 'shared_buffers=16MB', '-c', 'max_connections=5', '-c', 'max_locks_per_transaction=128'],
];

/**
 * Opens (or, in an empty folder, creates) a PGlite database on its own thread (pglite-thread.ts) and the ORM
 * on it. The app owns the PGlite instance because the driver's bundled copy cannot load newer extensions
 * (and now because it lives on another thread); `release` closes it, which the ORM does not do for an
 * instance it did not create.
 */
export async function openPgliteOrm(
  folder: string,
  log: (message: string) => void,
  entities: Entities,
  guard: TransactionGuardOptions,
) {
  const pglite = await openPgliteThread(folder, START_PARAMS);
  try {
    const orm = await MikroORM.init({
      ...ormOptions(entities),
      driver: guardedPgliteDriver(guard),
      logger: log,
      dbName: 'verdict',
      driverOptions: { pglite: asPglite(pglite) },
    });
    const listen: Listen = async (channel, handlers) => {
      // One process, one connection: nothing to lose, listening from the first moment.
      const unlisten = await pglite.listen(channel, handlers.onNotification);
      handlers.onListening();
      return unlisten;
    };
    return { orm, listen, release: () => pglite.close() };
  } catch (err) {
    await pglite.close();
    throw err;
  }
}

/**
 * MikroORM's PGlite driver, its one connection handed out through the transaction guard: a query that would
 * wait for the transaction open in its own async context fails at once instead of stopping the process.
 */
function guardedPgliteDriver(guard: TransactionGuardOptions) {
  class GuardedConnection extends PgliteConnection {
    override createKyselyDialect(
      overrides: Parameters<PgliteConnection['createKyselyDialect']>[0],
    ): PGliteDialect {
      // The guard is a dialect of the same behaviour; MikroORM only calls the Dialect interface on it.
      return guardDialect(super.createKyselyDialect(overrides), guard) as PGliteDialect;
    }
  }
  return class GuardedPgliteDriver extends PgliteDriver {
    constructor(config: Configuration) {
      super(config);
      // PgliteDriver names its connection class itself: the guarded one takes its place before first use.
      Object.assign(this, { connection: new GuardedConnection(this.config) });
    }

    /** Its entity manager marks each transaction's async context for the guard. */
    override createEntityManager(useContext?: boolean) {
      return new GuardedEntityManager<this>(this.config, this, this.metadata, useContext);
    }
  };
}
