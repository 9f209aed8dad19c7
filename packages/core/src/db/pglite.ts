import { PGlite } from '@electric-sql/pglite';
import { MikroORM } from '@mikro-orm/pglite';
import { ormOptions } from './orm-options.ts';

/**
 * Opens (or, in an empty folder, creates) a PGlite database and the ORM on it. The app owns the PGlite
 * instance because the driver's bundled copy cannot load newer extensions; `release` closes it, which
 * the ORM does not do for an instance it did not create.
 */
export async function openPgliteOrm(folder: string, log: (message: string) => void) {
  const pglite = await PGlite.create({ dataDir: folder });
  try {
    const orm = await MikroORM.init({
      ...ormOptions,
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
