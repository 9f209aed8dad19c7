import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/orm.ts';
import {
  createTestCore,
  eventually,
  insertPendingDebate,
  type TestCore,
  uniqueEmail,
} from '../testing/index.ts';
import { createDebateEvents } from './debate-events.ts';

/** The debate events of one "process" on `db`, counting the database units of work they open. */
function eventsOn(test: TestCore) {
  let statements = 0;
  const counted: Database = {
    ...test.core.db,
    em: () => {
      statements += 1;
      return test.core.db.em();
    },
  };
  const errors: unknown[] = [];
  const events = createDebateEvents({
    db: counted,
    bus: test.core.bus,
    onError: (error) => errors.push(error),
  });
  return { events, statements: () => statements, errors };
}

/** A follower counting what it was told. */
function follower() {
  const told = { events: 0, lost: 0, ended: 0 };
  return {
    told,
    onEvent: () => {
      told.events += 1;
    },
    onLost: () => {
      told.lost += 1;
    },
    onEnded: () => {
      told.ended += 1;
    },
  };
}

describe.each(['postgres', 'pglite'] as const)('the end of a followed attempt on %s', (database) => {
  let test: TestCore;
  let ownerId: string;
  let process: ReturnType<typeof eventsOn>;
  beforeAll(async () => {
    test = await createTestCore({}, { database });
    ownerId = (await test.core.accounts.createUser({ email: uniqueEmail('ends'), name: 'Ends' })).id;
    process = eventsOn(test);
  });
  afterAll(async () => {
    await process?.events.close();
    await test?.cleanup();
  });

  const pending = async () =>
    (
      await insertPendingDebate(test.core, {
        ownerId,
        question: 'Should ends be heard?',
        agents: 2,
        rounds: 1,
      })
    ).id;

  /** Follows the debate's first attempt until its followers' checks cost no statement: ends are heard. */
  async function followHeard(id: string) {
    const f = follower();
    await process.events.follow(id, 1, 0, f);
    await eventually(
      async () => {
        const before = process.statements();
        const current = await process.events.check(id, 1, 0);
        return { current, statements: process.statements() - before };
      },
      ({ current, statements }) => current && statements === 0,
    );
    return f;
  }

  it('answers an idle follower’s checks without a statement while ends are heard', async () => {
    const id = await pending();
    await followHeard(id);
    const before = process.statements();
    for (let i = 0; i < 20; i++) expect(await process.events.check(id, 1, 0)).toBe(true);
    expect(process.statements()).toBe(before);
  });

  it('tells the followers once the debate is deleted, soft or for good, or retried, by whichever writer', async () => {
    const [softly, forGood, retried, untouched] = await Promise.all([
      pending(),
      pending(),
      pending(),
      pending(),
    ]);
    const followers = await Promise.all([softly, forGood, retried, untouched].map(followHeard));
    await test.core.debates.softDelete(ownerId, softly);
    await test.core.db.execute('delete from debates where id = ?', [forGood]);
    await test.core.db.execute('update debates set attempt = attempt + 1 where id = ?', [retried]);
    // A change that ends nothing: its followers hear nothing.
    await test.core.db.execute('update debates set question = ? where id = ?', ['Still heard?', untouched]);
    await eventually(
      () => followers.slice(0, 3).map((f) => f.told.ended),
      (ended) => ended.every((count) => count === 1),
      5000,
    );
    expect(followers[3]?.told).toEqual({ events: 0, lost: 0, ended: 0 });
    expect(process.errors).toEqual([]);
  });
});
