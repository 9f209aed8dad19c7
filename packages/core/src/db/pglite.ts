import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { MikroORM } from '@mikro-orm/pglite';
import { type Entities, ormOptions } from './orm-options.ts';

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
 * Opens (or, in an empty folder, creates) a PGlite database and the ORM on it. The app owns the PGlite
 * instance because the driver's bundled copy cannot load newer extensions; `release` closes it, which
 * the ORM does not do for an instance it did not create.
 */
export async function openPgliteOrm(folder: string, log: (message: string) => void, entities: Entities) {
  // pgvector is loaded so that migration 0017 stores embeddings as `vector` (similar/vector-storage.ts).
  const pglite = await PGlite.create({ dataDir: folder, startParams: START_PARAMS, extensions: { vector } });
  try {
    const orm = await MikroORM.init({
      ...ormOptions(entities),
      logger: log,
      dbName: 'verdict',
      driverOptions: { pglite },
    });
    return { orm, release: () => pglite.close() };
  } catch (err) {
    await pglite.close();
    throw err;
  }
}
