import type { Database } from '../db/orm.ts';
import { parseLsn } from './lsn.ts';

/**
 * The one writer of `write_positions` (migration 0042), on the primary. After a caller's write committed,
 * the primary's WAL insert position is at or past the end of its commit record: a replica that has replayed
 * that far shows the write. (Not pg_current_wal_lsn(): with synchronous_commit off the commit record may not
 * be written out yet.) One statement, one round trip; `greatest` keeps the furthest of concurrent writes.
 */
export async function noteWritePosition(primary: Pick<Database, 'execute'>, userId: string): Promise<void> {
  await primary.execute(
    `insert into write_positions (user_id, lsn) values (?, pg_current_wal_insert_lsn())
     on conflict (user_id) do update set lsn = greatest(write_positions.lsn, excluded.lsn)`,
    [userId],
  );
}

/** Where the primary's WAL is now, and where the caller last wrote (null: never, or not since a crash). */
export type Positions = { primary: bigint; caller: bigint | null };

/** Both positions in one round trip to the primary. */
export async function positionsFor(primary: Pick<Database, 'execute'>, userId: string): Promise<Positions> {
  const [row] = await primary.execute<{ primary: string; caller: string | null }>(
    `select pg_current_wal_insert_lsn()::text as primary,
       (select lsn::text from write_positions where user_id = ?) as caller`,
    [userId],
  );
  return { primary: parseLsn(row?.primary) ?? 0n, caller: parseLsn(row?.caller) };
}

/** Where the primary's WAL is now. */
export async function primaryPosition(primary: Pick<Database, 'execute'>): Promise<bigint> {
  const [row] = await primary.execute<{ lsn: string }>('select pg_current_wal_insert_lsn()::text as lsn');
  return parseLsn(row?.lsn) ?? 0n;
}
