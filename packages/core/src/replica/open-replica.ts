import type { EntityManager } from '@mikro-orm/core';
import type { RawBuilder } from 'kysely';
import { query } from '../db/kysely.ts';
import type { Entities } from '../db/orm-options.ts';
import { ormOptions } from '../db/orm-options.ts';

/** What reads need of a database: a unit of work, for the ORM and typed queries (the primary's Database has it too). */
export type ReadDatabase = { em: () => EntityManager };

/** The rows of one SQL statement on `db`, outside any transaction: the positions and checks of replica/. */
export const rowsOf = async <T>(db: ReadDatabase, statement: RawBuilder<T>): Promise<T[]> =>
  (await statement.execute(query(db.em()))).rows;

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
    close: () => orm.close(true),
  };
}
