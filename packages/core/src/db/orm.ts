import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import type { EntityManager } from '@mikro-orm/core';
import { Migrator } from '@mikro-orm/migrations';
import { MikroORM as PgliteMikroORM } from '@mikro-orm/pglite';
import { MikroORM as PostgresMikroORM } from '@mikro-orm/postgresql';
import type { Config } from '../config/config.ts';
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

/**
 * Opens the configured database and applies pending migrations before returning. `log` receives the ORM's
 * own messages (migrations applied …).
 */
export async function openDatabase(
  config: Config['database'],
  log: (message: string) => void = () => {},
): Promise<Database> {
  const { orm, release } =
    config.kind === 'postgres'
      ? { orm: await openPostgres(config, log), release: undefined }
      : await openPglite(config.dataDir, log);
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

async function openPglite(dataDir: string, logger: (message: string) => void) {
  await mkdir(dataDir, { recursive: true });
  // The app owns the PGlite instance: the driver's bundled copy cannot load newer extensions.
  const pglite = await PGlite.create({ dataDir });
  const orm = await PgliteMikroORM.init({ ...common, logger, dbName: 'verdict', driverOptions: { pglite } });
  // The ORM leaves an instance it did not create open; closing it flushes the data folder.
  return { orm, release: () => pglite.close() };
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
