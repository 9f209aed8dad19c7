import { join } from 'node:path';
import type { EntityManager } from '@mikro-orm/core';
import { sql } from 'kysely';
import type { Config } from '../config/config.ts';
import { type DataDirLock, type LockRole, lockDataDir } from '../embedded/data-dir-lock.ts';
import { withTimeout } from '../shared/with-timeout.ts';
import { query } from './kysely.ts';
import type { Listen } from './listener.ts';
import { migrations } from './migrations/index.ts';
import { type Entities, ormOptions } from './orm-options.ts';
import { ensureDatabaseFolder } from './pglite-template.ts';
import { firstContact } from './postgres-startup.ts';
import type { HoldPresence } from './presence.ts';
import {
  onOtherConnections,
  type TransactionGuardOptions,
  type TransactionTimeout,
  withoutTransactionTimeout,
} from './transaction-guard.ts';

/** How long a transaction may stay open unless the caller says otherwise (DB_TRANSACTION_TIMEOUT_MS). */
export const DEFAULT_TRANSACTION_TIMEOUT_MS = 10_000;

export type Database = {
  /** Fork per unit of work (request, job); never share the root manager across requests. */
  em: () => EntityManager;
  /** Runs raw SQL; used by hot paths that want one round trip. */
  execute: <T = Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<T[]>;
  /** Resolves when the database answers a trivial query within the timeout. */
  ping: (timeoutMs?: number) => Promise<void>;
  /**
   * The migrations this version of the code has that the database has not applied, asked within the
   * timeout: readiness reports a database restored from an older backup, or migrated by nothing yet.
   */
  pendingMigrations: (timeoutMs?: number) => Promise<string[]>;
  /** Hears the notifications sent on `channel` (NOTIFY, from any process on this database). */
  listen: Listen;
  /**
   * Holds this process's presence (presence.ts), so others see the moment it dies. PostgreSQL only: an
   * embedded database has one process.
   */
  holdPresence?: HoldPresence;
  close: () => Promise<void>;
  kind: 'postgres' | 'pglite';
  /** The schema its tables are in (PGlite: public). */
  schema: string;
};

export type OpenDatabaseOptions = {
  /** The entities the ORM maps (src/entities.ts). */
  entities: Entities;
  /** Receives the ORM's own messages (migrations applied …) and embedded mode's (database created …). */
  log?: (message: string) => void;
  /**
   * Embedded mode: the DATA_DIR lock, if the caller took it already (the server takes it before checking
   * its port). The database releases it on close. Without one, the database takes it as `lockRole`.
   */
  lock?: DataDirLock;
  lockRole?: LockRole;
  /** Embedded mode: where prepared databases are looked for (undefined: next to the installed PGlite). */
  templates?: string | undefined;
  /** A transaction open longer than this is rolled back (default DEFAULT_TRANSACTION_TIMEOUT_MS). */
  transactionTimeoutMs?: number | undefined;
  /** Told of each transaction rolled back for being open too long (default: nothing). */
  onTransactionTimeout?: ((report: TransactionTimeout) => void) | undefined;
};

/**
 * Opens the configured database and applies pending migrations before returning. Embedded mode first
 * locks DATA_DIR (one process at a time) and creates the database there if it is empty.
 */
export async function openDatabase(
  config: Config['database'],
  options: OpenDatabaseOptions,
): Promise<Database> {
  const log = options.log ?? (() => {});
  const guard: TransactionGuardOptions = {
    timeoutMs: options.transactionTimeoutMs ?? DEFAULT_TRANSACTION_TIMEOUT_MS,
    onTimeout: options.onTransactionTimeout ?? (() => {}),
  };
  const { orm, release, listen, holdPresence } =
    config.kind === 'postgres'
      ? {
          orm: await openPostgres(config, log, options.entities, guard),
          release: undefined,
          listen: listenOn(config.url),
          holdPresence: presenceOn(config.url),
        }
      : await openEmbedded(config, options, log, guard);
  try {
    // Migrations take as long as the data needs: the transaction bound is not theirs.
    if (!(await allMigrationsApplied(orm))) await withoutTransactionTimeout(() => migrate(orm, config.kind));
  } catch (err) {
    await orm.close(true);
    await release?.();
    throw err;
  }
  const execute = <T>(sql: string, params: unknown[] = []) =>
    orm.em.getConnection().execute(sql, params) as Promise<T[]>;
  return {
    kind: config.kind,
    schema: config.kind === 'postgres' ? config.schema : 'public',
    em: () => orm.em.fork(),
    execute,
    listen,
    ...(holdPresence ? { holdPresence } : {}),
    ping: async (timeoutMs = 2000) => {
      await withTimeout(execute('select 1'), timeoutMs, 'database ping');
    },
    pendingMigrations: (timeoutMs = 2000) =>
      withTimeout(unappliedMigrations(orm), timeoutMs, 'database migrations check'),
    close: async () => {
      await orm.close(true);
      await release?.();
    },
  };
}

/**
 * Applies the pending migrations. On PostgreSQL several processes may start at once on a new database (a
 * deployment of many API and engine processes): each waits for a lock of the schema's own, held by a
 * transaction around the migrator's, and finds the work done when its turn comes. (PGlite has one process:
 * the DATA_DIR lock.)
 */
async function migrate(orm: { em: EntityManager; migrator: { up: () => Promise<unknown> } }, kind: string) {
  if (kind !== 'postgres') {
    await orm.migrator.up();
    return;
  }
  await orm.em.fork().transactional(async (em) => {
    await sql`select pg_advisory_xact_lock(hashtext('verdict-migrations:' || current_schema()))`.execute(
      query(em),
    );
    // The migrator works on connections of its own while this transaction holds the lock.
    await onOtherConnections(async () => {
      if (!(await allMigrationsApplied(orm))) await orm.migrator.up();
    });
  });
}

/**
 * The migrator spends a quarter of a second of CPU making sure it has nothing to do, at every start; one
 * query says whether it has. A missing table (a new database) means it has.
 */
async function allMigrationsApplied(orm: { em: EntityManager }) {
  try {
    return (await unappliedMigrations(orm)).length === 0;
  } catch {
    return false;
  }
}

/** This version's migrations missing from the database's record of those applied. */
async function unappliedMigrations(orm: { em: EntityManager }): Promise<string[]> {
  const rows: { name: string }[] = await orm.em
    .getConnection()
    .execute('select name from mikro_orm_migrations');
  const applied = new Set(rows.map((row) => row.name));
  return migrations.filter((migration) => !applied.has(migration.name)).map((migration) => migration.name);
}

async function openPostgres(
  config: { url: string; schema: string },
  logger: (message: string) => void,
  entities: Entities,
  guard: TransactionGuardOptions,
) {
  // Loaded here so that embedded mode never loads the PostgreSQL driver, nor distributed mode PGlite.
  const { MikroORM: PostgresMikroORM } = await import('@mikro-orm/postgresql');
  const { guardedPostgreSqlDriver } = await import('./postgres-driver.ts');
  const { prepareMarkedStatements } = await import('./prepared-statements.ts');
  const orm = await PostgresMikroORM.init({
    ...ormOptions(entities),
    driver: guardedPostgreSqlDriver(guard),
    logger,
    clientUrl: config.url,
    schema: config.schema,
    // The ORM would create a missing database at its first connection: a misspelt DATABASE_URL would then
    // start on an empty database. Only `npm run admin -- create-database` creates one.
    ensureDatabase: false,
    pool: { min: 0, max: 10 },
    // search_path makes raw SQL and migrations land in the configured schema (tests use one each). The server
    // ends a session idle in a transaction past twice the guard's bound: the guard rolls a stuck transaction
    // back only while its process runs, and one paused (SIGSTOP, a frozen VM) or cut off mid-transaction held
    // its row locks for as long, blocking the node taking its debates over (a debate row locked by a paused
    // engine could not be claimed whatever its lease said).
    driverOptions: {
      options: `-c search_path=${config.schema} -c idle_in_transaction_session_timeout=${guard.timeoutMs * 2}`,
      // A database that accepts connections but never answers must not pin the pool forever.
      connectionTimeoutMillis: 5000,
      query_timeout: 30_000,
      idleTimeoutMillis: 30_000,
      onPoolCreated: prepareMarkedStatements,
    },
  });
  await firstContact(config.url, () => orm.em.getConnection().execute('select 1')).catch(async (error) => {
    await orm.close(true);
    throw error;
  });
  await orm.em
    .getConnection()
    .execute(`create schema if not exists "${config.schema}"`)
    .catch(async (error: unknown) => {
      // "if not exists" is no guard against a process creating it at the same moment: the loser's insert
      // into the catalogue fails as a duplicate. The schema is there either way.
      const found = await orm.em
        .getConnection()
        .execute('select 1 from pg_namespace where nspname = ?', [config.schema]);
      if (found.length === 0) throw error;
    });
  return orm;
}

/**
 * LISTEN on the PostgreSQL of `url`, every channel on one session (postgres-listener.ts); its module (and
 * `pg`) loaded on first use.
 */
const listenOn = (url: string): Listen => {
  let listener: Promise<Listen> | null = null;
  return async (channel, handlers) => {
    listener ??= import('./postgres-listener.ts').then(({ postgresListener }) => postgresListener(url));
    return (await listener)(channel, handlers);
  };
};

/** Presence on the PostgreSQL of `url`; its module (and `pg`) loaded on first use. */
const presenceOn =
  (url: string): HoldPresence =>
  async (name, handlers) => {
    const { holdPresenceOnPostgres } = await import('./postgres-presence.ts');
    return holdPresenceOnPostgres(url, name, handlers);
  };

async function openEmbedded(
  config: Extract<Config['database'], { kind: 'pglite' }>,
  options: OpenDatabaseOptions,
  log: (message: string) => void,
  guard: TransactionGuardOptions,
) {
  const lock = options.lock ?? (await lockDataDir(config.dataDir, options.lockRole ?? 'server'));
  try {
    const folder = join(config.dataDir, 'pglite');
    await ensureDatabaseFolder(folder, options.templates, log);
    // Loaded here so that distributed mode never loads PGlite.
    const { openPgliteOrm } = await import('./pglite.ts');
    const { orm, release, listen } = await openPgliteOrm(folder, log, options.entities, guard);
    return {
      orm,
      listen,
      // One process: nobody to tell it died.
      holdPresence: undefined,
      release: async () => {
        await release();
        await lock.release();
      },
    };
  } catch (err) {
    await lock.release();
    throw err;
  }
}
