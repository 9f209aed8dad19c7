import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entities } from '../entities.ts';
import { testDatabaseUrl, uniqueSchema } from '../testing/index.ts';
import { query } from './kysely.ts';
import { type Database, openDatabase } from './orm.ts';
import {
  QueryOutsideTransactionError,
  type TransactionTimeout,
  TransactionTimeoutError,
  withoutTransactionTimeout,
} from './transaction-guard.ts';

type Probe = { guard_probe: { id: number; note: string } };

const TIMEOUT_MS = 300;
const modes = ['postgres', 'pglite'] as const;

describe.each(modes)('the transaction guard on %s', (mode) => {
  let db: Database;
  let dir: string | undefined;
  const schema = uniqueSchema('guard');
  const timeouts: TransactionTimeout[] = [];

  beforeAll(async () => {
    const options = {
      entities,
      transactionTimeoutMs: TIMEOUT_MS,
      onTransactionTimeout: (report: TransactionTimeout) => timeouts.push(report),
    };
    if (mode === 'postgres') {
      db = await openDatabase({ kind: 'postgres', url: testDatabaseUrl(), schema }, options);
    } else {
      dir = await mkdtemp(join(tmpdir(), 'verdict-guard-'));
      db = await openDatabase({ kind: 'pglite', dataDir: dir }, options);
    }
    await db.execute('create table guard_probe (id int primary key, note text not null)');
  });
  afterAll(async () => {
    if (mode === 'postgres') await db.execute(`drop schema if exists "${schema}" cascade`);
    await db.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const probe = (em = db.em()) => query<Probe>(em);
  const notes = async () =>
    (await probe().selectFrom('guard_probe').select('note').orderBy('id').execute()).map((r) => r.note);

  it('refuses a query through another entity manager inside a transaction, instead of waiting for it', async () => {
    const attempt = db.em().transactional(async (em) => {
      await probe(em).selectFrom('guard_probe').selectAll().forUpdate().execute();
      await probe().selectFrom('guard_probe').selectAll().execute();
    });
    await expect(attempt).rejects.toBeInstanceOf(QueryOutsideTransactionError);
    // The database still answers: nothing waits on the transaction that was refused.
    await expect(db.execute('select 1 as one')).resolves.toEqual([{ one: 1 }]);
  });

  it('refuses a second, independent transaction begun inside a transaction', async () => {
    const attempt = db.em().transactional(async (em) => {
      await probe(em).insertInto('guard_probe').values({ id: 1, note: 'outer' }).execute();
      await db
        .em()
        .transactional((inner) =>
          probe(inner).insertInto('guard_probe').values({ id: 2, note: 'inner' }).execute(),
        );
    });
    await expect(attempt).rejects.toBeInstanceOf(QueryOutsideTransactionError);
    expect(await notes()).toEqual([]);
  });

  it('allows what goes through the transaction: its own queries, nested savepoints, raw SQL on its manager', async () => {
    await db.em().transactional(async (em) => {
      await probe(em).insertInto('guard_probe').values({ id: 10, note: 'a' }).execute();
      await em.transactional((nested) =>
        probe(nested).insertInto('guard_probe').values({ id: 11, note: 'b' }).execute(),
      );
      await sql`insert into guard_probe (id, note) values (12, 'c')`.execute(probe(em));
    });
    expect(await notes()).toEqual(['a', 'b', 'c']);
    await db.execute('delete from guard_probe');
  });

  it('lets work started inside a transaction query on its own once the transaction has ended', async () => {
    let later: Promise<unknown> = Promise.resolve();
    await db.em().transactional(async (em) => {
      await probe(em).insertInto('guard_probe').values({ id: 20, note: 'committed' }).execute();
      const committed = new Promise((resolve) => setTimeout(resolve, 50));
      later = committed.then(() => notes());
    });
    await expect(later).resolves.toEqual(['committed']);
    await db.execute('delete from guard_probe');
  });

  it('rolls back a transaction held past the bound, says so, and serves everyone else meanwhile', async () => {
    let release: () => void = () => {};
    const stuck = new Promise<void>((resolve) => {
      release = resolve;
    });
    const held = db.em().transactional(async (em) => {
      await probe(em).insertInto('guard_probe').values({ id: 30, note: 'never committed' }).execute();
      await stuck;
      await probe(em).insertInto('guard_probe').values({ id: 31, note: 'after the bound' }).execute();
    });
    held.catch(() => {});
    // Another request is answered within the bound's time, not after the stuck one.
    const started = Date.now();
    await db
      .em()
      .transactional((em) => probe(em).insertInto('guard_probe').values({ id: 32, note: 'other' }).execute());
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS * 5);
    await new Promise((resolve) => setTimeout(resolve, TIMEOUT_MS * 2));
    release();
    await expect(held).rejects.toBeInstanceOf(TransactionTimeoutError);
    expect(await notes()).toEqual(['other']);
    expect(timeouts).toEqual([
      { timeoutMs: TIMEOUT_MS, firstStatement: expect.stringContaining('insert into "guard_probe"') },
    ]);
    // The connection it held works for the next transaction.
    await db
      .em()
      .transactional((em) => probe(em).insertInto('guard_probe').values({ id: 33, note: 'next' }).execute());
    expect(await notes()).toEqual(['other', 'next']);
    await db.execute('delete from guard_probe');
  });
});

/** A PostgreSQL database on a schema of its own, with the guard's bound `timeoutMs`, dropped after `use`. */
async function onOwnSchema(label: string, timeoutMs: number, use: (db: Database) => Promise<void>) {
  const schema = uniqueSchema(label);
  const db = await openDatabase(
    { kind: 'postgres', url: testDatabaseUrl(), schema },
    { entities, transactionTimeoutMs: timeoutMs, onTransactionTimeout: () => {} },
  );
  try {
    await use(db);
  } finally {
    await db.execute(`drop schema if exists "${schema}" cascade`);
    await db.close();
  }
}

describe('the transaction bound on the PostgreSQL server', () => {
  it("bounds a session idle in a transaction at twice the guard's bound on the server, which a paused process cannot stop", async () => {
    await onOwnSchema('idle', TIMEOUT_MS, async (db) => {
      // Every connection of the pool gets it: the guard's timers cannot run in a paused process, the server's can.
      const settings = await Promise.all(
        [1, 2, 3].map(() =>
          db.em().transactional((em) =>
            sql<{
              value: string;
            }>`select current_setting('idle_in_transaction_session_timeout') as value`.execute(query(em)),
          ),
        ),
      );
      expect(settings.map((result) => result.rows[0]?.value)).toEqual(Array(3).fill(`${TIMEOUT_MS * 2}ms`));
    });
  });

  it("migrates a new schema, and runs unbounded work, however long it idles past the server's bound", async () => {
    // Migrating holds a lock in a transaction that idles while the migrator works, and a loaded process idles
    // between a migration's statements: with a bound of 5 ms (10 ms on the server) the server ended those
    // sessions, and the open waited for ever.
    await onOwnSchema('slowmig', 5, async (db) => {
      expect(await db.pendingMigrations()).toEqual([]);
      const idleBetween = (em: Parameters<typeof query>[0]) =>
        sql`select 1`
          .execute(query(em))
          .then(() => new Promise((resolve) => setTimeout(resolve, 100)))
          .then(() => sql<{ value: string }>`select 'still here' as value`.execute(query(em)));
      const unbounded = await withoutTransactionTimeout(() => db.em().transactional(idleBetween));
      expect(unbounded.rows).toEqual([{ value: 'still here' }]);
      // Bounded work idling as long is ended (by the guard, or by the server where the guard's timer is late).
      await expect(db.em().transactional(idleBetween)).rejects.toThrow();
    });
  });

  it('gives back the connection of a session the server ended mid-transaction: the pool never runs dry', async () => {
    await onOwnSchema('ended', 10_000, async (db) => {
      // Twelve transactions whose sessions the server ends while they idle (the pool holds ten connections):
      // each fails, and none keeps its connection.
      for (let i = 0; i < 12; i += 1) {
        const ended = db.em().transactional(async (em) => {
          await sql`set local idle_in_transaction_session_timeout = 10`.execute(query(em));
          await new Promise((resolve) => setTimeout(resolve, 60));
          await sql`select 1`.execute(query(em));
        });
        await expect(ended).rejects.toThrow(/not queryable|terminat/);
      }
      await expect(db.execute('select 1 as one')).resolves.toEqual([{ one: 1 }]);
    });
  });
});
