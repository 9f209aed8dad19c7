import type { EntityManager } from '@mikro-orm/core';
import type { Entities } from '../db/orm-options.ts';
import { ormOptions } from '../db/orm-options.ts';

/** What reads need of a database: a unit of work and raw SQL (the primary's Database has both too). */
export type ReadDatabase = {
  em: () => EntityManager;
  execute: <T = Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<T[]>;
};

export type ReplicaConnection = ReadDatabase & { close: () => Promise<void> };

/**
 * A pool on the replica: the same entities and schema as the primary's, nothing migrated or created (a
 * standby refuses writes; the primary's migrations arrive by replication). Connecting is bounded by a
 * second, not the primary's five: a replica that does not answer is read around, not waited for.
 */
export async function openReplica(
  url: string,
  schema: string,
  entities: Entities,
): Promise<ReplicaConnection> {
  const { MikroORM } = await import('@mikro-orm/postgresql');
  const orm = await MikroORM.init({
    ...ormOptions(entities),
    clientUrl: url,
    schema,
    ensureDatabase: false,
    pool: { min: 0, max: 10 },
    driverOptions: {
      options: `-c search_path=${schema}`,
      connectionTimeoutMillis: 1_000,
      query_timeout: 30_000,
      idleTimeoutMillis: 30_000,
    },
  });
  return {
    em: () => orm.em.fork(),
    execute: <T>(sql: string, params: unknown[] = []) =>
      orm.em.getConnection().execute(sql, params) as Promise<T[]>,
    close: () => orm.close(true),
  };
}
