import type { EntityManager } from '@mikro-orm/core';
import { sql } from 'kysely';
import { query } from '../../db/kysely.ts';
import { type EventPartition, LOCK_TIMEOUT, PARTITIONS_LOCK } from './event-partitions.ts';

const createdIn = (column: string, { from, to }: EventPartition) =>
  sql`${sql.ref(column)} < ${to?.toISOString()}::timestamptz
    ${from ? sql`and ${sql.ref(column)} >= ${from.toISOString()}::timestamptz` : sql``}`;

const transcriptsIn = (partition: EventPartition) =>
  sql<number>`(select count(*)::int from debate_transcripts t where ${createdIn('t.debate_created_at', partition)})`;

/**
 * When every debate of the partition's range has ended and has a transcript of its attempt, and every row
 * in it belongs to a transcript of that range (rows an older writer keyed '-infinity' included): how many
 * transcripts the range has; null otherwise. Read without locks. The range's debates are looked at first:
 * while one is open (a debate left paused keeps its month) the partition itself is not scanned.
 */
async function allCompacted(em: EntityManager, partition: EventPartition): Promise<number | null> {
  const { rows: debates } = await sql<{ open: boolean }>`select
      exists (select 1 from debates d where ${createdIn('d.created_at', partition)}
               and (d.status not in ('completed', 'failed')
                    or not exists (select 1 from debate_transcripts t
                                    where t.debate_id = d.id and t.attempt = d.attempt))) as open`.execute(
    query(em.fork()),
  );
  if (debates[0]?.open !== false) return null;
  const { rows } = await sql<{ stray: boolean; transcripts: number }>`select
      ${transcriptsIn(partition)} as transcripts,
      exists (select 1 from ${sql.table(partition.name)} e
               where not exists (select 1 from debate_transcripts t
                                  where t.debate_id = e.debate_id and t.attempt = e.attempt
                                    and ${createdIn('t.debate_created_at', partition)})) as stray`.execute(
    query(em.fork()),
  );
  const row = rows[0];
  return row && !row.stray ? row.transcripts : null;
}

/**
 * The partition dropped if every debate in it is compacted; answers whether it was. Under the parent's lock
 * (taken first, as readers and writers take it before a partition's, so no deadlock; briefly: every read and
 * write of events waits), only what can have changed since the check is looked at again, by indexes: a debate
 * of the range retried, which is either unfinished or, ended again, lost its transcript (a retry forgets it)
 * and so left the range with fewer (a debate deleted meanwhile does too: the drop then waits a pass). Its
 * transcripts are marked as the readers' source in the same transaction.
 */
export async function dropEventPartition(em: EntityManager, partition: EventPartition): Promise<boolean> {
  if (partition.isDefault || partition.to === null) return false;
  const transcripts = await allCompacted(em, partition);
  if (transcripts === null) return false;
  return em.fork().transactional(async (tx) => {
    const k = query(tx);
    const { rows } = await sql<{ locked: boolean }>`select ${PARTITIONS_LOCK} as locked`.execute(k);
    if (!rows[0]?.locked) return false;
    await LOCK_TIMEOUT.execute(k);
    await sql`lock table debate_events in access exclusive mode`.execute(k);
    const { rows: now } = await sql<{ reopened: boolean; transcripts: number }>`select
        exists (select 1 from debates d where ${createdIn('d.created_at', partition)}
                 and d.status in ('pending', 'running', 'paused')) as reopened,
        ${transcriptsIn(partition)} as transcripts`.execute(k);
    if (now[0]?.reopened !== false || now[0]?.transcripts !== transcripts) return false;
    await sql`update debate_transcripts t set rows_dropped = true
       where ${createdIn('t.debate_created_at', partition)} and not t.rows_dropped`.execute(k);
    await sql`drop table ${sql.table(partition.name)}`.execute(k);
    return true;
  });
}
