import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entities } from '../entities.ts';
import { testDatabaseUrl, uniqueSchema } from '../testing/index.ts';
import { query } from './kysely.ts';
import { type Database, openDatabase } from './orm.ts';
import { prepared } from './prepared-statements.ts';

const modes = ['postgres', 'pglite'] as const;

describe.each(modes)('statements marked to be prepared, on %s', (mode) => {
  let db: Database;
  let dir: string | undefined;
  const schema = uniqueSchema('prepared');

  beforeAll(async () => {
    if (mode === 'postgres') {
      db = await openDatabase({ kind: 'postgres', url: testDatabaseUrl(), schema }, { entities });
    } else {
      dir = await mkdtemp(join(tmpdir(), 'verdict-prepared-'));
      db = await openDatabase({ kind: 'pglite', dataDir: dir }, { entities });
    }
  });
  afterAll(async () => {
    if (mode === 'postgres') await db.execute(`drop schema if exists "${schema}" cascade`);
    await db.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const doubled = (n: number) => prepared('doubled', sql<{ twice: number }>`select ${n}::int * 2 as twice`);
  /** The statements prepared on the connection that runs this (one connection: a transaction's). */
  const preparedHere = async (k: ReturnType<typeof query>) =>
    (
      await sql<{
        name: string;
        statement: string;
      }>`select name, statement from pg_prepared_statements`.execute(k)
    ).rows;

  it('answers as the statement unmarked would, each time with its own parameters', async () => {
    const answers = await db.em().transactional(async (em) => {
      const k = query(em);
      const seen: number[] = [];
      for (const n of [1, 2, 3]) seen.push((await doubled(n).execute(k)).rows[0]?.twice ?? -1);
      return seen;
    });
    expect(answers).toEqual([2, 4, 6]);
  });

  it(
    mode === 'postgres'
      ? 'prepares it once on the connection and runs it by name after; unmarked statements stay unnamed'
      : 'is a comment to PGlite: nothing is prepared there',
    async () => {
      const names = await db.em().transactional(async (em) => {
        const k = query(em);
        await doubled(4).execute(k);
        await doubled(5).execute(k);
        await sql`select 1 as unmarked`.execute(k);
        return preparedHere(k);
      });
      if (mode === 'pglite') {
        expect(names).toEqual([]);
        return;
      }
      expect(names).toHaveLength(1);
      expect(names[0]?.name).toMatch(/^doubled_[0-9a-f]{12}$/);
      expect(names[0]?.statement).toContain('/*prepared:doubled*/ select $1::int * 2 as twice');
    },
  );
});
