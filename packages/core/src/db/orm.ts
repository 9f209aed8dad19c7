import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { EntityManager } from '@mikro-orm/core';
import { Migrator } from '@mikro-orm/migrations';
import { MikroORM as PgliteMikroORM } from '@mikro-orm/pglite';
import { MikroORM as PostgresMikroORM } from '@mikro-orm/postgresql';
import type { Config } from '../config/config.ts';
import { type DataDirLock, type LockRole, lockDataDir } from '../embedded/data-dir-lock.ts';
import { entities } from './entities.ts';
import { migrations } from './migrations/index.ts';

export type Database = {
  /** Fork per unit of work (request, job); never share the root manager across requests. */
  em: () => EntityManager;
  /** Runs raw SQL; used by hot paths that want one round trip. */
  execute: <T = Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<T[]>;
  /** Resolves when the database answers a trivial query within the timeout. */
  ping: (timeoutMs?: number) => Promise<void>;
  close: () => Promise<void>;
  kind: 'postgres' | 'pglite';
};

const common = {
  entities,
  extensions: [Migrator],
  migrations: { migrationsList: migrations, transactional: true, allOrNothing: true, snapshot: false },
  // Entities are defined with defineEntity; no reflection or folder scanning is needed.
  discovery: { warnWhenNoEntities: true },
  allowGlobalContext: false,
  debug: false,
  colors: false,
};

export type OpenDatabaseOptions = {
  /** Receives the ORM's own messages (migrations applied …). */
  log?: (message: string) => void;
  /**
   * Embedded mode: the DATA_DIR lock, if the caller took it already (the server takes it first thing).
   * The database releases it on close. Without one, the database takes it as `lockRole`.
   */
  lock?: DataDirLock;
  lockRole?: LockRole;
};

/**
 * Opens the configured database and applies pending migrations before returning. Embedded mode first
 * locks DATA_DIR: one process at a time.
 */
export async function openDatabase(
  config: Config['database'],
  options: OpenDatabaseOptions = {},
): Promise<Database> {
  const log = options.log ?? (() => {});
  const { orm, release } =
    config.kind === 'postgres'
      ? { orm: await openPostgres(config, log), release: undefined }
      : await openPglite(config, options, log);
  await orm.migrator.up();
  const execute = <T>(sql: string, params: unknown[] = []) =>
    orm.em.getConnection().execute(sql, params) as Promise<T[]>;
  return {
    kind: config.kind,
    em: () => orm.em.fork(),
    execute,
    ping: async (timeoutMs = 2000) => {
      await withTimeout(execute('select 1'), timeoutMs, 'database ping');
    },
    close: async () => {
      await orm.close(true);
      await release?.();
    },
  };
}

async function openPostgres(config: { url: string; schema: string }, logger: (message: string) => void) {
  const orm = await PostgresMikroORM.init({
    ...common,
    logger,
    clientUrl: config.url,
    schema: config.schema,
    pool: { min: 0, max: 10 },
    // search_path makes raw SQL and migrations land in the configured schema (tests use one each).
    driverOptions: {
      options: `-c search_path=${config.schema}`,
      // A database that accepts connections but never answers must not pin the pool forever.
      connectionTimeoutMillis: 5000,
      query_timeout: 30_000,
      idleTimeoutMillis: 30_000,
    },
  });
  await orm.em.getConnection().execute(`create schema if not exists "${config.schema}"`);
  return orm;
}

async function openPglite(
  config: Extract<Config['database'], { kind: 'pglite' }>,
  options: OpenDatabaseOptions,
  logger: (message: string) => void,
) {
  const lock = options.lock ?? (await lockDataDir(config.dataDir, options.lockRole ?? 'server'));
  try {
    const dataDir = join(config.dataDir, 'pglite');
    await mkdir(dataDir, { recursive: true });
    // The app owns the PGlite instance: the driver's bundled copy cannot load newer extensions.
    const pglite = await PGlite.create({ dataDir });
    const orm = await PgliteMikroORM.init({
      ...common,
      logger,
      dbName: 'verdict',
      driverOptions: { pglite },
    });
    // The ORM leaves an instance it did not create open; closing it flushes the data folder.
    return {
      orm,
      release: async () => {
        await pglite.close();
        await lock.release();
      },
    };
  } catch (err) {
    await lock.release();
    throw err;
  }
}

async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
