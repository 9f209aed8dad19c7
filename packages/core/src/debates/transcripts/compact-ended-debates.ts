import type { EntityManager } from '@mikro-orm/core';
import { sql } from 'kysely';
import { query } from '../../db/kysely.ts';

/** Debates compacted per statement: each transcript is one debate's events, a few hundred KiB at most. */
const PER_STATEMENT = 100;

/** A debate that ended and was not retried: nothing writes its events again (a retry forgets its transcript). */
const ENDED = sql`d.status in ('completed', 'failed')`;

/**
 * The ended debates created in [from, to) without a transcript of their current attempt, each given one: its
 * events in order with their times, in one jsonb row (compressed by PostgreSQL's TOAST like any large value).
 * The one writer of `debate_transcripts`. A debate is compacted while its row is share-locked, so a retry
 * (which updates the row) waits for it or comes first. Answers how many were compacted.
 */
export async function compactEndedDebates(em: EntityManager, from: Date | null, to: Date): Promise<number> {
  let compacted = 0;
  // Walked in id order from where the last statement stopped: each statement reads only debates it may
  // compact, never again the ones compacted before it (a skipped, locked one waits for the next pass).
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const { rows } = await sql<{ n: string | number; last: string | null }>`with ended as (
        select d.id, d.attempt, d.created_at from debates d
         where d.id > ${after}::uuid and d.created_at < ${to.toISOString()}::timestamptz
           ${from ? sql`and d.created_at >= ${from.toISOString()}::timestamptz` : sql``}
           and ${ENDED}
           and not exists (select 1 from debate_transcripts t where t.debate_id = d.id and t.attempt = d.attempt)
         order by d.id limit ${PER_STATEMENT}
         for share of d skip locked
      ), written as (
        insert into debate_transcripts (debate_id, attempt, debate_created_at, events, event_count)
        select e.id, e.attempt, e.created_at, coalesce(log.events, '[]'::jsonb), coalesce(log.n, 0)
          from ended e
          left join lateral (
            select jsonb_agg(jsonb_build_object('seq', r.seq, 'type', r.type, 'data', r.data, 'at', r.created_at)
                             order by r.seq) as events, count(*) as n
              from debate_events r where r.debate_id = e.id and r.attempt = e.attempt) log on true
        on conflict (debate_id) do update set attempt = excluded.attempt,
          debate_created_at = excluded.debate_created_at, events = excluded.events,
          event_count = excluded.event_count, rows_dropped = false, compacted_at = now()
        returning 1
      )
      select (select count(*) from written) as n, (select id::text from ended order by id desc limit 1) as last`.execute(
      query(em.fork()),
    );
    const n = Number(rows[0]?.n ?? 0);
    compacted += n;
    const last = rows[0]?.last;
    if (n < PER_STATEMENT || !last) return compacted;
    after = last;
  }
}

/** A retried debate's transcript forgotten with its events (debate-record.ts's resetForRetry). */
export async function forgetTranscript(em: EntityManager, debateId: string): Promise<void> {
  await sql`delete from debate_transcripts where debate_id = ${debateId}`.execute(query(em));
}
