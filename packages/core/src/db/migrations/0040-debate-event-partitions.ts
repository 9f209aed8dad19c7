import { Migration } from '@mikro-orm/migrations';

/**
 * `debate_events` partitioned by month of its debate's creation, and `debate_transcripts`: an ended debate's
 * events compacted into one row, read in place of the rows once their partition is dropped
 * (debates/transcripts/).
 *
 * The partition key is `debate_created_at`, the debate's own `created_at` copied onto each of its events by
 * the engine's writer (engine/store/many-debate-writes.ts, from the `debates` row the same statement already
 * locks: no extra round trip). Every event of a debate has the same key, so a debate's events live in one
 * partition and a re-written event meets its earlier copy there: each partition's own primary key
 * (debate_id, attempt, seq) keeps the write a no-op (`on conflict do nothing` without a target takes any of
 * the partition's unique indexes). The parent has no primary key of its own: PostgreSQL would want the key in
 * it, and then attaching the existing table would build a new unique index under its lock.
 *
 * The existing table becomes the partition `debate_events_legacy`, its rows untouched, for every key before
 * the first day of next month (UTC), so debates older than this migration keep writing there; its rows get
 * the key '-infinity' (a constant default: no rewrite). No row is copied. So that writes never wait on a
 * scan, the migration runs outside a transaction (`isTransactional` false; the runner commits each migration
 * on its own, orm-options.ts), in steps each short under its lock, each a no-op when run again:
 *   1. the key column with its constant default, and a CHECK that it lies before the bound, NOT VALID
 *      (brief ACCESS EXCLUSIVE, no scan);
 *   2. VALIDATE that CHECK: the one scan, under SHARE UPDATE EXCLUSIVE (writes go on);
 *   3. in one statement (one transaction, brief locks): the table renamed, the partitioned parent made,
 *      the old table attached (the validated CHECK proves the partition bound: no scan), monthly partitions
 *      made ahead, and a DEFAULT partition.
 * No CREATE INDEX CONCURRENTLY is needed (nothing is indexed anew), so PGlite runs the same steps. Steps 1 and 3
 * compute months in UTC whatever the server's TimeZone (a month added to a timestamptz is counted in the
 * session's zone: under a negative offset two months could take one name, or a month fall to DEFAULT), and
 * give up after 5 s waiting for their lock (behind a long reader of the table, every write would queue
 * behind them): the start fails, and is tried again, from the step that failed.
 *
 * The DEFAULT partition takes what no range takes: events of a debate whose month was dropped by retention
 * and that is retried, or keys past the months made ahead if the maintenance job has not run. Making a new
 * partition scans it; it stays small, and the job moves its rows of a new month into that month first.
 */
export class Migration0040DebateEventPartitions extends Migration {
  override name = '0040-debate-event-partitions';

  override isTransactional(): boolean {
    return false;
  }

  override up(): void {
    this.addSql(`do $$
      begin
        perform set_config('TimeZone', 'UTC', true), set_config('lock_timeout', '5s', true);
        if (select c.relkind from pg_class c where c.oid = to_regclass('debate_events')) = 'r' then
          alter table debate_events
            add column if not exists debate_created_at timestamptz not null default '-infinity';
          if not exists (select 1 from pg_constraint
                          where conrelid = 'debate_events'::regclass and conname = 'debate_events_legacy_range') then
            execute format('alter table debate_events add constraint debate_events_legacy_range
                check (debate_created_at < %L) not valid',
              date_trunc('month', now(), 'UTC') + interval '1 month');
          end if;
        end if;
      end $$;`);
    this.addSql(`do $$
      begin
        if (select c.relkind from pg_class c where c.oid = to_regclass('debate_events')) = 'r' then
          alter table debate_events validate constraint debate_events_legacy_range;
        end if;
      end $$;`);
    this.addSql(`do $$
      declare
        bound timestamptz;
        month timestamptz;
      begin
        perform set_config('TimeZone', 'UTC', true), set_config('lock_timeout', '5s', true);
        if (select c.relkind from pg_class c where c.oid = to_regclass('debate_events')) = 'r' then
          select substring(pg_get_constraintdef(oid) from '''([^'']+)''')::timestamptz into bound
            from pg_constraint where conrelid = 'debate_events'::regclass and conname = 'debate_events_legacy_range';
          alter table debate_events rename to debate_events_legacy;
          alter table debate_events_legacy rename constraint debate_events_pkey to debate_events_legacy_pkey;
          create table debate_events (
            debate_id uuid not null,
            attempt int not null,
            seq int not null,
            type varchar(50) not null,
            data jsonb not null,
            created_at timestamptz not null default now(),
            debate_created_at timestamptz not null default '-infinity'
          ) partition by range (debate_created_at);
          alter table debate_events add constraint debate_events_debate_id_foreign
            foreign key (debate_id) references debates (id) on delete cascade;
          execute format('alter table debate_events attach partition debate_events_legacy
              for values from (minvalue) to (%L)', bound);
          create table debate_events_default partition of debate_events (primary key (debate_id, attempt, seq))
            default;
          for i in 0..2 loop
            month := bound + make_interval(months => i);
            execute format('create table %I partition of debate_events (primary key (debate_id, attempt, seq))
                for values from (%L) to (%L)',
              'debate_events_' || to_char(month at time zone 'UTC', 'YYYYMM'), month, month + interval '1 month');
          end loop;
        end if;
      end $$;`);
    this.addSql(`create table if not exists debate_transcripts (
      debate_id uuid not null,
      attempt int not null,
      debate_created_at timestamptz not null,
      events jsonb not null,
      event_count int not null,
      rows_dropped boolean not null default false,
      compacted_at timestamptz not null default now(),
      constraint debate_transcripts_pkey primary key (debate_id),
      constraint debate_transcripts_debate_id_foreign foreign key (debate_id) references debates (id)
        on delete cascade
    );`);
    this.addSql(`create index if not exists debate_transcripts_created_index
      on debate_transcripts (debate_created_at);`);
    // What readers read: the rows while they exist, a transcript's events once its rows are dropped (the
    // flag is set in the transaction that drops them), so no event is read twice.
    this.addSql(`create or replace view debate_event_log as
      select debate_id, attempt, seq, type, data, created_at from debate_events
      union all
      select t.debate_id, t.attempt, e.seq, e.type, e.data, e.at
        from debate_transcripts t
        cross join lateral jsonb_to_recordset(t.events) as e(seq int, type varchar(50), data jsonb, at timestamptz)
       where t.rows_dropped;`);
  }
}
