import { sql } from 'kysely';
import { parseLsn } from './lsn.ts';
import { type ReadDatabase, rowsOf } from './open-replica.ts';

/**
 * The one writer of `write_positions` (migration 0042), on the primary. After a caller's write committed,
 * the primary's WAL insert position is at or past the end of its commit record: a replica that has replayed
 * that far shows the write. (Not pg_current_wal_lsn(): with synchronous_commit off the commit record may not
 * be written out yet.) One statement, one round trip; `greatest` keeps the furthest of concurrent writes.
 */
export async function noteWritePosition(primary: ReadDatabase, userId: string): Promise<void> {
  await rowsOf(
    primary,
    sql`insert into write_positions (user_id, lsn) values (${userId}, pg_current_wal_insert_lsn())
      on conflict (user_id) do update set lsn = greatest(write_positions.lsn, excluded.lsn)`,
  );
}

/** Where the primary's WAL is now, and where the caller last wrote (null: never, or not since a crash). */
export type Positions = { primary: bigint; caller: bigint | null };

/** Both positions in one round trip to the primary. */
export async function positionsFor(primary: ReadDatabase, userId: string): Promise<Positions> {
  const [row] = await rowsOf(
    primary,
    sql<{ primary: string; caller: string | null }>`select pg_current_wal_insert_lsn()::text as primary,
      (select lsn::text from write_positions where user_id = ${userId}) as caller`,
  );
  return { primary: parseLsn(row?.primary) ?? 0n, caller: parseLsn(row?.caller) };
}

/** Where the primary's WAL is now. */
export async function primaryPosition(primary: ReadDatabase): Promise<bigint> {
  const [row] = await rowsOf(primary, sql<{ lsn: string }>`select pg_current_wal_insert_lsn()::text as lsn`);
  return parseLsn(row?.lsn) ?? 0n;
}
