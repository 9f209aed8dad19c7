import type { EntityManager } from '@mikro-orm/core';
import { sql } from 'kysely';
import { query } from '../../db/kysely.ts';
import { type EventPartition, LOCK_TIMEOUT, PARTITIONS_LOCK } from './event-partitions.ts';

const createdIn = (column: string, { from, to }: EventPartition) =>
  sql`${sql.ref(column)} < ${to?.toISOString()}::timestamptz
    ${from ? sql`and ${sql.ref(column)} >= ${from.toISOString()}::timestamptz` : sql``}`;

/**
 * Whether every debate of the partition's range has ended and has a transcript of its attempt, and every row
 * in it belongs to a transcript of that range (rows an older writer keyed '-infinity' included). Read without
 * locks: it scans the partition.
 */
async function allCompacted(em: EntityManager, partition: EventPartition): Promise<boolean> {
  const { rows } = await sql<{ open: boolean; stray: boolean }>`select
      exists (select 1 from debates d where ${createdIn('d.created_at', partition)}
               and (d.status not in ('completed', 'failed')
                    or not exists (select 1 from debate_transcripts t
                                    where t.debate_id = d.id and t.attempt = d.attempt))) as open,
      exists (select 1 from ${sql.table(partition.name)} e
               where not exists (select 1 from debate_transcripts t
                                  where t.debate_id = e.debate_id and t.attempt = e.attempt
                                    and ${createdIn('t.debate_created_at', partition)})) as stray`.execute(
    query(em.fork()),
  );
  return rows[0]?.open === false && rows[0]?.stray === false;
}

/**
 * The partition dropped if every debate in it is compacted; answers whether it was. Under the parent's lock
 * (taken first, as readers and writers take it before a partition's, so no deadlock; briefly: every read and
 * write of events waits), only what can have changed since the check is looked at again: a debate of the
 * range retried (its status is no longer ended). Its transcripts are marked as the readers' source in the
 * same transaction.
 */
export async function dropEventPartition(em: EntityManager, partition: EventPartition): Promise<boolean> {
  if (partition.isDefault || partition.to === null || !(await allCompacted(em, partition))) return false;
  return em.fork().transactional(async (tx) => {
    const k = query(tx);
    const { rows } = await sql<{ locked: boolean }>`select ${PARTITIONS_LOCK} as locked`.execute(k);
    if (!rows[0]?.locked) return false;
    await LOCK_TIMEOUT.execute(k);
    await sql`lock table debate_events in access exclusive mode`.execute(k);
    const reopened = await sql`select 1 from debates d where ${createdIn('d.created_at', partition)}
        and d.status not in ('completed', 'failed') limit 1`.execute(k);
    if (reopened.rows.length > 0) return false;
    await sql`update debate_transcripts t set rows_dropped = true
       where ${createdIn('t.debate_created_at', partition)} and not t.rows_dropped`.execute(k);
    await sql`drop table ${sql.table(partition.name)}`.execute(k);
    return true;
  });
}
