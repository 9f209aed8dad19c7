import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPgliteThread, type PgliteThread } from './pglite-thread.ts';

describe('the embedded database on its own thread', () => {
  let dir: string;
  let db: PgliteThread;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'verdict-pglite-thread-'));
    db = await openPgliteThread(dir, PGlite.defaultStartParams);
    await db.exec('create table notes (id int primary key, body text not null, at timestamptz not null)');
  });
  afterAll(async () => {
    await db?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('answers with the rows, their types as PGlite parses them, and the count a write affected', async () => {
    const written = await db.query('insert into notes values ($1, $2, $3), (2, $4, now())', [
      1,
      'first',
      new Date('2026-01-02T03:04:05Z'),
      'second',
    ]);
    expect(written.affectedRows).toBe(2);
    const { rows } = await db.query<{ id: number; body: string; at: unknown; doc: unknown }>(
      `select id, body, at, '{"a":[1,2]}'::jsonb as doc from notes where id = $1`,
      [1],
    );
    expect(rows).toEqual([{ id: 1, body: 'first', at: expect.anything(), doc: { a: [1, 2] } }]);
    expect(new Date(rows[0]?.at as string | Date).toISOString()).toBe('2026-01-02T03:04:05.000Z');
  });

  it('raises a statement’s error with its SQLSTATE, and goes on answering', async () => {
    await expect(db.query('insert into notes values (1, $1, now())', ['again'])).rejects.toMatchObject({
      code: '23505',
      message: expect.stringContaining('duplicate key'),
    });
    await expect(db.query('select 1 / 0')).rejects.toMatchObject({ code: '22012' });
    await expect(db.query('select $1::text', [() => 'a function'])).rejects.toThrow(/could not be cloned/);
    expect((await db.query('select count(*)::int as n from notes')).rows).toEqual([{ n: 2 }]);
  });

  it('keeps a transaction’s writes only when it commits, and holds other statements until it ends', async () => {
    await expect(
      db.transaction(async (tx) => {
        await tx.query('insert into notes values (3, $1, now())', ['rolled back']);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    const order: string[] = [];
    const committed = db.transaction(async (tx) => {
      await tx.query('insert into notes values (4, $1, now())', ['kept']);
      // A statement outside the transaction, sent while it is open, waits for its end.
      const outside = db.query<{ n: number }>('select count(*)::int as n from notes').then((r) => {
        order.push('outside');
        return r.rows[0]?.n;
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      order.push('commit');
      // Wrapped: returning the promise itself would make the transaction wait for what waits for it.
      return { outside };
    });
    const { outside } = await committed;
    expect(await outside).toBe(3);
    expect(order).toEqual(['commit', 'outside']);
    expect((await db.query('select id from notes order by id')).rows).toEqual([
      { id: 1 },
      { id: 2 },
      { id: 4 },
    ]);
  });

  it('delivers notifications to listeners until they stop listening', async () => {
    const heard: string[] = [];
    const stop = await db.listen('note_changes', (payload) => heard.push(payload));
    await db.query(`select pg_notify('note_changes', 'one')`);
    await expect.poll(() => heard).toEqual(['one']);
    await stop();
    await db.query(`select pg_notify('note_changes', 'two')`);
    await db.query('select 1');
    expect(heard).toEqual(['one']);
  });

  it('fails every call once closed, instead of leaving it waiting', async () => {
    const otherDir = await mkdtemp(join(tmpdir(), 'verdict-pglite-closed-'));
    try {
      const other = await openPgliteThread(otherDir, PGlite.defaultStartParams);
      await other.close();
      expect(other.closed).toBe(true);
      await expect(other.query('select 1')).rejects.toThrow(/database thread exited/);
    } finally {
      await rm(otherDir, { recursive: true, force: true });
    }
  });
});
