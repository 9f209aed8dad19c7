import type { EntityManager } from '@mikro-orm/core';
import type { InferKyselyDB, SqlEntityManager } from '@mikro-orm/sql';
import type { ColumnType, Kysely } from 'kysely';

/** `Date` as read back: the driver MikroORM configures returns timestamps as text, never as `Date`. */
type TextDates<T> = T extends Date ? string : T;

/** A column as typed queries see it: timestamps selected as text, written as a `Date` or text. */
type StoredColumn<C> = [C] extends [ColumnType<infer S, infer I, infer U>]
  ? ColumnType<TextDates<S>, I | TextDates<I>, U | TextDates<U>>
  : Extract<C, Date> extends never
    ? C
    : ColumnType<TextDates<C>, C | TextDates<C>, C | TextDates<C>>;

/**
 * The tables of some entities as typed queries see them: the names and columns of the database, with
 * timestamps read as ISO text (wrap one in `new Date(…)` to compute with it).
 */
export type TablesOf<TEntities extends { name: string }> = {
  [T in keyof InferKyselyDB<TEntities>]: {
    [C in keyof InferKyselyDB<TEntities>[T]]: StoredColumn<InferKyselyDB<TEntities>[T][C]>;
  };
};

/**
 * A typed query builder over `em`: inside `em.transactional(…)` it runs in that transaction. `TDB` names the
 * tables the caller may touch (each feature exports the types of its own tables; a caller joins another
 * feature's table by naming its type too), with table and column names as in the database.
 *
 * @example
 * const user = await query<AccountTables>(db.em()).selectFrom('users').select(['id', 'plan'])
 *   .where('id', '=', id).executeTakeFirst();
 */
export const query = <TDB>(em: EntityManager): Kysely<TDB> =>
  (em as unknown as SqlEntityManager).getKysely() as unknown as Kysely<TDB>;
