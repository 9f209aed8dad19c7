import type { EntityManager } from '@mikro-orm/core';
import { sql } from 'kysely';
import { query } from '../../db/kysely.ts';

/** A partition of `debate_events`: its table and its range of debate creation times (null: unbounded). */
export type EventPartition = { name: string; from: Date | null; to: Date | null; isDefault: boolean };

/** The only job that changes the partitions takes this lock first, so nodes passing at once never collide. */
export const PARTITIONS_LOCK = sql`pg_try_advisory_xact_lock(hashtext('verdict-debate-event-partitions:' || current_schema()))`;

/** How long partition changes wait for a lock: never long behind a slow read, with every write queued behind them. */
export const LOCK_TIMEOUT = sql.raw(`set local lock_timeout = '2s'`);

/** The partitions of `debate_events`, as the catalog has them. */
export async function eventPartitions(em: EntityManager): Promise<EventPartition[]> {
  const { rows } = await sql<{ name: string; from_ms: number | null; to_ms: number | null; bound: string }>`
    select name, bound,
           extract(epoch from (regexp_match(bound, 'FROM \\(''([^'']+)''\\)'))[1]::timestamptz) * 1000 as from_ms,
           extract(epoch from (regexp_match(bound, 'TO \\(''([^'']+)''\\)'))[1]::timestamptz) * 1000 as to_ms
      from (select c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bound
              from pg_inherits i join pg_class c on c.oid = i.inhrelid
             where i.inhparent = 'debate_events'::regclass) p
     order by from_ms nulls first`.execute(query(em));
  return rows.map((row) => ({
    name: row.name,
    from: row.from_ms === null ? null : new Date(Number(row.from_ms)),
    to: row.to_ms === null ? null : new Date(Number(row.to_ms)),
    isDefault: row.bound === 'DEFAULT',
  }));
}

/** The first instant of the UTC month `monthsFrom` months after the one `at` is in. */
export const monthStart = (at: Date, monthsFrom = 0) =>
  new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + monthsFrom, 1));

const overlaps = (partition: EventPartition, from: Date, to: Date) =>
  !partition.isDefault &&
  (partition.from === null || partition.from < to) &&
  (partition.to === null || partition.to > from);

/**
 * The months from the one `now` is in to `monthsAhead` after it that no partition covers yet, each made a
 * partition; answers their names. A month another partition overlaps (the legacy one's last) is left alone.
 */
export async function makePartitionsAhead(
  em: EntityManager,
  now: Date,
  monthsAhead: number,
): Promise<string[]> {
  const existing = await eventPartitions(em);
  const made: string[] = [];
  for (let i = 0; i <= monthsAhead; i++) {
    const from = monthStart(now, i);
    const to = monthStart(now, i + 1);
    if (existing.some((partition) => overlaps(partition, from, to))) continue;
    const name = `debate_events_${from.toISOString().slice(0, 7).replace('-', '')}`;
    if (await makeMonth(em, name, from, to)) made.push(name);
  }
  return made;
}

/**
 * One month's partition, in one transaction: made as a table of its own, the DEFAULT partition's rows of that
 * month moved into it (there are some only if this job stopped for longer than the months it makes ahead),
 * then attached. Attaching checks the new table and the DEFAULT partition, both small, under brief locks.
 * False when another node holds the job's lock, or made the month since the partitions were read.
 */
async function makeMonth(em: EntityManager, name: string, from: Date, to: Date): Promise<boolean> {
  const table = sql.table(name);
  const range = sql`debate_created_at >= ${sql.lit(from.toISOString())} and debate_created_at < ${sql.lit(to.toISOString())}`;
  return em.fork().transactional(async (tx) => {
    const k = query(tx);
    const { rows } = await sql<{ locked: boolean }>`select ${PARTITIONS_LOCK} as locked`.execute(k);
    if (!rows[0]?.locked) return false;
    const { rows: made } = await sql<{
      made: boolean;
    }>`select to_regclass(${name}) is not null as made`.execute(k);
    if (made[0]?.made) return false;
    await LOCK_TIMEOUT.execute(k);
    await sql`lock table debate_events in share row exclusive mode`.execute(k);
    await sql`create table ${table} (like debate_events including defaults, primary key (debate_id, attempt, seq))`.execute(
      k,
    );
    await sql`with moved as (delete from debate_events_default where ${range} returning *)
      insert into ${table} (debate_id, attempt, seq, type, data, created_at, debate_created_at)
      select debate_id, attempt, seq, type, data, created_at, debate_created_at from moved`.execute(k);
    await sql`alter table debate_events attach partition ${table}
      for values from (${sql.lit(from.toISOString())}) to (${sql.lit(to.toISOString())})`.execute(k);
    return true;
  });
}
