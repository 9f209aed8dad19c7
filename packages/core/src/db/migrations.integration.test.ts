import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, describe, expect, it } from 'vitest';
import { entities } from '../entities.ts';
import { createTestCore, type TestCore, testDatabaseUrl, uniqueSchema } from '../testing/index.ts';
import { migrations } from './migrations/index.ts';
import { type Database, openDatabase } from './orm.ts';
import { ormOptions } from './orm-options.ts';

const COLUMNS_SQL = `select table_name, column_name, data_type, is_nullable, column_default
  from information_schema.columns where table_schema = current_schema()
  order by table_name, column_name`;

const CONSTRAINTS_SQL = `select tc.table_name, tc.constraint_name, tc.constraint_type
  from information_schema.table_constraints tc where tc.table_schema = current_schema()
  and (tc.constraint_type <> 'CHECK' or tc.constraint_name like '%_check')
  order by 1, 2`;

async function describeSchema(db: Database) {
  return { columns: await db.execute(COLUMNS_SQL), constraints: await db.execute(CONSTRAINTS_SQL) };
}

describe('migrations', () => {
  const cores: TestCore[] = [];
  afterAll(async () => {
    for (const c of cores) await c.cleanup();
  });

  it('leave nothing for the schema generator to change: entities and committed SQL agree', async () => {
    const test = await createTestCore();
    cores.push(test);
    const orm = await MikroORM.init({
      entities,
      clientUrl: testDatabaseUrl(),
      schema: test.schema,
      driverOptions: { options: `-c search_path=${test.schema}` },
      discovery: { warnWhenNoEntities: false },
    });
    try {
      const diff = await catalogRead(() => orm.schema.getUpdateSchemaSQL({ wrap: false, safe: true }));
      // rate_limit_counters is deliberately not an entity; with safe: true no drop is proposed for it.
      expect(diff.trim()).toBe('');
    } finally {
      await orm.close(true);
    }
  });

  it('are applied once: reopening the same schema runs nothing new', async () => {
    const first = await createTestCore();
    cores.push(first);
    const again = await createTestCore({ DATABASE_SCHEMA: first.schema });
    const rows = await again.core.db.execute<{ n: number }>(
      'select count(*)::int as n from mikro_orm_migrations',
    );
    await again.core.close();
    expect(rows[0]?.n).toBe(migrations.length);
  });

  it('are applied once when several processes open a new schema at the same moment', async () => {
    const schema = uniqueSchema('m');
    const open = () => openDatabase({ kind: 'postgres', url: testDatabaseUrl(), schema }, { entities });
    const opened = await Promise.allSettled([open(), open(), open()]);
    const databases = opened.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
    try {
      expect(opened.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
      const rows = await databases[0]!.execute<{ n: number }>(
        'select count(*)::int as n from mikro_orm_migrations',
      );
      expect(rows[0]?.n).toBe(migrations.length);
    } finally {
      await databases[0]?.execute(`drop schema if exists "${schema}" cascade`);
      for (const db of databases) await db.close();
    }
  });

  it('produce the same tables, columns and constraints on PGlite as on PostgreSQL', async () => {
    const postgres = await createTestCore();
    cores.push(postgres);
    const dir = await mkdtemp(join(tmpdir(), 'verdict-pglite-'));
    const pglite = await openDatabase({ kind: 'pglite', dataDir: dir }, { entities });
    try {
      const onPostgres = await describeSchema(postgres.core.db);
      const onPglite = await describeSchema(pglite);
      expect(onPostgres.columns.length).toBeGreaterThan(20);
      // The one intended difference (migrations 0017 and 0034): embeddings are pgvector's type where it exists.
      const isEmbedding = (c: Record<string, unknown>) =>
        (c.table_name === 'debate_embeddings' || c.table_name === 'evidence_passages') &&
        c.column_name === 'embedding';
      expect(onPostgres.columns.filter(isEmbedding).map((c) => c.data_type)).toEqual(['ARRAY', 'ARRAY']);
      expect(onPglite.columns.filter(isEmbedding).map((c) => c.data_type)).toEqual([
        'USER-DEFINED',
        'USER-DEFINED',
      ]);
      const withoutEmbedding = ({ columns, constraints }: typeof onPglite) => ({
        columns: columns.filter((c) => !isEmbedding(c)),
        constraints,
      });
      expect(withoutEmbedding(onPglite)).toEqual(withoutEmbedding(onPostgres));
    } finally {
      await pglite.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('0027 moves the embedding and score work still pending off the webhook outbox', async () => {
    const schema = uniqueSchema('m');
    const orm = await MikroORM.init({
      ...ormOptions(entities),
      clientUrl: testDatabaseUrl(),
      schema,
      driverOptions: { options: `-c search_path=${schema}` },
    });
    const run = (statement: string, params: unknown[] = []) =>
      orm.em.getConnection().execute(statement, params) as Promise<Record<string, unknown>[]>;
    try {
      await run(`create schema if not exists "${schema}"`);
      await orm.migrator.up({ to: '0026-webhook-retention-indexes' });
      const [user] = await run(`insert into users (email, name) values ('m@example.com', 'M') returning id`);
      const debate = async (question: string) =>
        (
          await run(
            `insert into debates (owner_id, question, mode, status, funding_source, requested_agents, requested_rounds)
             values (?, ?, 'fast', 'completed', 'user_credits', 3, 1) returning id`,
            [user!.id, question],
          )
        )[0]!.id;
      const [retried, embedded, pending] = [
        await debate('Retried?'),
        await debate('Done?'),
        await debate('New?'),
      ];
      const outbox = (key: string, event: string, debateId: unknown, stamps: string) =>
        run(
          `insert into webhook_outbox (user_id, event, debate_id, dedupe_key, payload, created_at, dispatched_at,
             scored_at, embedded_at, embed_due_at, embed_attempts) values (?, ?, ?, ?, '{}', ${stamps})`,
          [user!.id, event, debateId, key],
        );
      // Completed twice (two attempts), tried twice by the embedder and still due: one queued embedding.
      await outbox('r1', 'debate.completed', retried, `'2026-01-01', now(), now(), null, '2026-01-02', 1`);
      await outbox('r2', 'debate.completed', retried, `'2026-01-03', now(), null, null, '2026-01-05', 2`);
      await outbox('e', 'debate.completed', embedded, `'2026-01-04', null, now(), now(), null, 1`);
      await outbox('p', 'debate.completed', pending, `'2026-01-06', null, now(), null, null, 0`);
      await outbox('o', 'outcome.updated', embedded, `'2026-01-07', now(), null, null, null, 0`);
      await outbox('c', 'chain.created', null, `'2026-01-08', null, null, null, null, 0`);

      await orm.migrator.up();
      const day = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD') as ${column}`;
      const queue = await run(
        `select debate_id, ${day('created_at')}, ${day('due_at')}, attempts from embedding_queue order by 2`,
      );
      expect(queue).toEqual([
        { debate_id: retried, created_at: '2026-01-01', due_at: '2026-01-05', attempts: 2 },
        { debate_id: pending, created_at: '2026-01-06', due_at: null, attempts: 0 },
      ]);
      const scores = await run(`select user_id, ${day('created_at')} from score_queue order by 2`);
      expect(scores).toEqual([
        { user_id: user!.id, created_at: '2026-01-03' },
        { user_id: user!.id, created_at: '2026-01-07' },
      ]);
      const columns = await run(
        `select column_name from information_schema.columns where table_schema = ? and table_name = 'webhook_outbox'`,
        [schema],
      );
      expect(columns.map((c) => c.column_name)).not.toContain('scored_at');
      expect(await run('select count(*)::int as n from webhook_outbox')).toEqual([{ n: 6 }]);
    } finally {
      await run(`drop schema if exists "${schema}" cascade`);
      await orm.close(true);
    }
  });
});

/**
 * A read of PostgreSQL's catalog while other test files create and drop their schemas: the generator's
 * index query calls pg_get_indexdef() on every index it lists, and one dropped between the listing and the
 * call fails with "could not open relation with OID" (XX000) or answers null (which the generator then fails
 * to unquote: "Cannot read properties of null" in its schema helper), and a schema dropped meanwhile with
 * "schema … does not exist": races with other files, not differences. Tried again, up to three times, for
 * those only.
 */
async function catalogRead<T>(read: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await read();
    } catch (err) {
      // Another test's schema dropped while the generator read every schema's catalog: a relation, or the
      // whole schema, gone between the listing and the read.
      const concurrentDrop =
        err instanceof Error &&
        (/could not open relation with OID|schema "[^"]+" does not exist/.test(err.message) ||
          (err instanceof TypeError &&
            /Cannot read properties of null/.test(err.message) &&
            /SchemaHelper/.test(err.stack ?? '')));
      if (!concurrentDrop || attempt === 3) throw err;
    }
  }
}
