import { OperatorError } from '../shared/operator-error.ts';
import { databaseName, postgresAddress, postgresStartupProblem } from './postgres-startup.ts';
import { hasSqlState } from './sql-state.ts';

/** Databases every PostgreSQL cluster has, to connect to while the named one does not exist yet. */
const MAINTENANCE_DATABASES = ['postgres', 'template1'];

export type CreatedDatabase = { name: string; address: string; created: boolean };

/**
 * Creates the database DATABASE_URL names, on its server, as its user: what `npm run admin --
 * create-database` does, and the one place that ever creates a database (processes refuse to start on a
 * missing one rather than create whatever a misspelt URL names). Nothing when it exists already.
 */
export async function createNamedDatabase(url: string): Promise<CreatedDatabase> {
  const name = databaseName(url);
  const address = postgresAddress(url);
  const { MikroORM } = await import('@mikro-orm/postgresql');
  for (const maintenance of MAINTENANCE_DATABASES) {
    const target = new URL(url);
    target.pathname = `/${maintenance}`;
    const orm = await MikroORM.init({
      entities: [],
      discovery: { warnWhenNoEntities: false },
      clientUrl: target.toString(),
      ensureDatabase: false,
      allowGlobalContext: true,
      debug: false,
      pool: { min: 0, max: 1 },
      driverOptions: { connectionTimeoutMillis: 5000 },
    });
    const connection = orm.em.getConnection();
    try {
      let found: unknown[];
      try {
        found = await connection.execute('select 1 from pg_database where datname = ?', [name]);
      } catch (error) {
        // This cluster has no such maintenance database: the next one.
        if (hasSqlState(error, '3D000')) continue;
        throw postgresStartupProblem(error, url) ?? error;
      }
      if (found.length > 0) return { name, address, created: false };
      await connection.execute(`create database "${name.replaceAll('"', '""')}"`);
      return { name, address, created: true };
    } catch (error) {
      // Another process created it between the check and the create.
      if (hasSqlState(error, '42P04')) return { name, address, created: false };
      if (hasSqlState(error, '42501')) {
        throw new OperatorError(
          `the user of DATABASE_URL may not create databases on PostgreSQL at ${address}; ` +
            `create "${name}" as a user who may (createdb ${name}) or grant it CREATEDB`,
        );
      }
      throw error;
    } finally {
      await orm.close(true);
    }
  }
  throw new OperatorError(
    `PostgreSQL at ${address} has none of the databases ${MAINTENANCE_DATABASES.join(', ')} to connect to while creating "${name}"; create it with createdb`,
  );
}
