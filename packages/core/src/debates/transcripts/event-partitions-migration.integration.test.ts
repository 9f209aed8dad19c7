import { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { ormOptions } from '../../db/orm-options.ts';
import { entities } from '../../entities.ts';
import { testDatabaseUrl, uniqueSchema } from '../../testing/index.ts';

/**
 * Events the table holds when migration 0040 runs. 50,000 keep this test at a few seconds in `npm test`;
 * `MIGRATION_TEST_EVENTS=1000000 npm test -- <this file>` is the run BENCHMARKS.md reports.
 */
const EVENTS = Number(process.env.MIGRATION_TEST_EVENTS ?? 50_000);
const EVENTS_PER_DEBATE = 20;

/** The longest a write may wait while the table is migrated: its brief ACCESS EXCLUSIVE steps only. */
const WRITE_BOUND_MS = 1000;

/** The engine's event write as the version before 0040 sends it: no partition key, `on conflict do nothing`. */
const OLD_WRITE = `insert into debate_events (debate_id, attempt, seq, type, data, created_at)
  values ($1, 1, $2, 'argument', '{"agent":"W"}', now()) on conflict do nothing`;

/** The write as the engine sends it from 0040 on: keyed by its debate's creation (many-debate-writes.ts). */
const NEW_WRITE = `insert into debate_events (debate_id, attempt, seq, type, data, created_at, debate_created_at)
  select d.id, 1, ?, 'argument', '{"agent":"N"}', now(), d.created_at from debates d where d.id = ?
  on conflict do nothing`;

/** Writers on connections of their own, each adding new events and re-writing old ones until stopped. */
function startWriters(url: string, schema: string, debateIds: string[], count: number) {
  const latencies: number[] = [];
  let added = 0;
  let stop = false;
  const writer = async (n: number) => {
    const client = new pg.Client({ connectionString: url, options: `-c search_path=${schema}` });
    await client.connect();
    try {
      for (let i = 0; !stop; i++) {
        const debateId = debateIds[(i * count + n) % debateIds.length] as string;
        const started = performance.now();
        // A new event (seqs past the filled ones, distinct per writer), then a re-write of a filled one.
        const { rowCount } = await client.query(OLD_WRITE, [debateId, 1000 + i * count + n]);
        await client.query(OLD_WRITE, [debateId, 1 + (i % EVENTS_PER_DEBATE)]);
        latencies.push(performance.now() - started);
        added += rowCount ?? 0;
      }
    } finally {
      await client.end();
    }
  };
  const running = Array.from({ length: count }, (_, n) => writer(n));
  return {
    stop: async () => {
      stop = true;
      await Promise.all(running);
      return { added, latencies };
    },
  };
}

describe('migration 0040 on a live table', () => {
  it(`moves ${EVENTS} events while writes go on: none lost or doubled, no write blocked ${WRITE_BOUND_MS} ms`, async () => {
    const schema = uniqueSchema('m40');
    const orm = await MikroORM.init({
      ...ormOptions(entities),
      clientUrl: testDatabaseUrl(),
      schema,
      driverOptions: { options: `-c search_path=${schema}` },
      logger: () => {},
    });
    const run = <T = Record<string, unknown>>(statement: string, params: unknown[] = []) =>
      orm.em.getConnection().execute(statement, params) as Promise<T[]>;
    try {
      await run(`create schema if not exists "${schema}"`);
      await orm.migrator.up({ to: '0039-single-sign-on' });
      const [user] = await run<{ id: string }>(
        `insert into users (email, name) values ('m@example.com', 'M') returning id`,
      );
      await run(
        `insert into debates (owner_id, question, mode, status, funding_source, requested_agents, requested_rounds,
           created_at)
         select ?, 'Q', 'fast', 'running', 'user_credits', 3, 1, now() - make_interval(days => i % 300)
           from generate_series(1, ?) i`,
        [user?.id, EVENTS / EVENTS_PER_DEBATE],
      );
      await run(
        `insert into debate_events (debate_id, attempt, seq, type, data, created_at)
         select d.id, 1, s, 'argument', jsonb_build_object('agent', 'A', 'round', s, 'content', repeat('x', 200)), now()
           from debates d, generate_series(1, ${EVENTS_PER_DEBATE}) s`,
      );
      const debateIds = (await run<{ id: string }>(`select id from debates order by random() limit 500`)).map(
        (r) => r.id,
      );
      const writers = startWriters(testDatabaseUrl(), schema, debateIds, 3);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const started = performance.now();
      await orm.migrator.up();
      const migrationMs = performance.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 200));
      const { added, latencies } = await writers.stop();

      const [kind] = await run<{ relkind: string }>(
        `select relkind from pg_class where oid = 'debate_events'::regclass`,
      );
      expect(kind?.relkind).toBe('p');
      const [count] = await run<{ n: number }>(`select count(*)::int as n from debate_events`);
      expect(count?.n).toBe(EVENTS + added);
      const [doubled] = await run<{ n: number }>(
        `select count(*)::int as n from (select 1 from debate_events group by debate_id, attempt, seq having count(*) > 1) d`,
      );
      expect(doubled?.n).toBe(0);
      const [legacy] = await run<{ n: number }>(`select count(*)::int as n from debate_events_legacy`);
      expect(legacy?.n).toBe(EVENTS + added);
      // The new writer on a debate from before: a re-written event (keyed '-infinity' in the legacy partition,
      // now sent with the debate's creation time) is still a no-op; a new one goes to the legacy partition.
      const debateId = debateIds[0] as string;
      await run(NEW_WRITE, [1, debateId]);
      await run(NEW_WRITE, [5000, debateId]);
      const mine = await run<{ p: string; n: number }>(
        `select tableoid::regclass::text as p, count(*)::int as n from debate_events where debate_id = ? group by 1`,
        [debateId],
      );
      expect(mine).toHaveLength(1);
      expect(mine[0]?.p).toMatch(/debate_events_legacy$/);
      const longest = Math.max(...latencies);
      console.info(
        `0040 on ${EVENTS} events: migration ${migrationMs.toFixed(0)} ms; ${latencies.length} write pairs while writers ran, ` +
          `longest ${longest.toFixed(0)} ms; ${added} events added`,
      );
      expect(added).toBeGreaterThan(0);
      expect(longest).toBeLessThan(WRITE_BOUND_MS);
    } finally {
      await run(`drop schema if exists "${schema}" cascade`);
      await orm.close(true);
    }
  }, 300_000);

  it("makes UTC months whatever the server's time zone (a month added to a timestamptz counts in the session's)", async () => {
    const schema = uniqueSchema('m40tz');
    // New York: under a negative offset, a month counted in local time moves a UTC month's start a day or an
    // hour, and at the end of a 30-day month two steps fall in one UTC month (one name twice: the step fails).
    const orm = await MikroORM.init({
      ...ormOptions(entities),
      clientUrl: testDatabaseUrl(),
      schema,
      driverOptions: { options: `-c search_path=${schema} -c TimeZone=America/New_York` },
      logger: () => {},
    });
    const run = <T = Record<string, unknown>>(statement: string) =>
      orm.em.getConnection().execute(statement, []) as Promise<T[]>;
    try {
      await run(`create schema if not exists "${schema}"`);
      await orm.migrator.up();
      const rows = await run<{ name: string; from_at: string | null; to_at: string | null }>(
        `select c.relname as name,
                (regexp_match(pg_get_expr(c.relpartbound, c.oid), 'FROM \\(''([^'']+)''\\)'))[1]::timestamptz as from_at,
                (regexp_match(pg_get_expr(c.relpartbound, c.oid), 'TO \\(''([^'']+)''\\)'))[1]::timestamptz as to_at
           from pg_inherits i join pg_class c on c.oid = i.inhrelid
          where i.inhparent = 'debate_events'::regclass`,
      );
      // The driver answers timestamps as text.
      const partitions = rows.map(({ name, from_at, to_at }) => ({
        name,
        from_at: from_at === null ? null : new Date(from_at),
        to_at: to_at === null ? null : new Date(to_at),
      }));
      const utcMonthStart = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
      const months = partitions.filter((p) => /_\d{6}$/.test(p.name));
      expect(months).toHaveLength(3);
      for (const { name, from_at, to_at } of months) {
        const from = from_at as Date;
        expect(from).toEqual(utcMonthStart(from));
        expect(to_at).toEqual(new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + 1, 1)));
        expect(name).toBe(`debate_events_${from.toISOString().slice(0, 7).replace('-', '')}`);
      }
      const legacy = partitions.find((p) => p.name === 'debate_events_legacy');
      expect(legacy?.to_at).toEqual(utcMonthStart(legacy?.to_at as Date));
      expect(legacy?.to_at).toEqual(months.map((p) => p.from_at as Date).sort((a, b) => +a - +b)[0]);
    } finally {
      await run(`drop schema if exists "${schema}" cascade`);
      await orm.close(true);
    }
  }, 120_000);
});
