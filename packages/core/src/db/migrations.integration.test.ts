import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, describe, expect, it } from 'vitest';
import { entities } from '../entities.ts';
import { createTestCore, type TestCore, testDatabaseUrl, uniqueSchema } from '../testing/index.ts';
import { migrations } from './migrations/index.ts';
import { type Database, openDatabase } from './orm.ts';

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
      const diff = await orm.schema.getUpdateSchemaSQL({ wrap: false, safe: true });
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
      // The one intended difference (migration 0017): embeddings are pgvector's type where it exists.
      const isEmbedding = (c: Record<string, unknown>) =>
        c.table_name === 'debate_embeddings' && c.column_name === 'embedding';
      expect(onPostgres.columns.find(isEmbedding)?.data_type).toBe('ARRAY');
      expect(onPglite.columns.find(isEmbedding)?.data_type).toBe('USER-DEFINED');
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
});
