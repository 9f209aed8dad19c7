import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestCore, insertPendingDebate, type TestCore } from '../testing/index.ts';
import { attachmentExcerptsFor, attachmentExcerptsOfMany } from './agent-context.ts';

// An engine node reads the attachments of the debates starting a round together in one statement: each
// debate must still get its own ready attachments, oldest first, with its own share of the budget.
describe("the agents' attachment excerpts of many debates at once", () => {
  let test: TestCore;
  let ownerId = '';

  beforeAll(async () => {
    test = await createTestCore();
    ({ id: ownerId } = await test.core.accounts.createUser({
      email: `excerpts-${Date.now()}@example.com`,
      name: 'E',
      plan: 'pro',
    }));
  });
  afterAll(async () => {
    await test?.cleanup();
  });

  const debate = async () =>
    (
      await insertPendingDebate(
        { db: test.core.db, bus: { jobs: { enqueue: async () => {} } as never } },
        { ownerId, question: 'Which attachments do the agents read?', agents: 2, rounds: 1 },
      )
    ).id;

  const attach = (debateId: string, filename: string, text: string, status: string, ageSeconds: number) =>
    test.core.db.execute(
      `insert into attachments (debate_id, owner_id, kind, filename, content_type, size, status, text, created_at)
       values (?, ?, 'file', ?, 'text/plain', ?, ?, ?, now() - make_interval(secs => ?))`,
      [debateId, ownerId, filename, text.length, status, text, ageSeconds],
    );

  it("gives each debate its own ready attachments, oldest first, each debate's budget its own", async () => {
    const [a, b, none] = [await debate(), await debate(), await debate()];
    await attach(a, 'newer.txt', 'x'.repeat(30), 'ready', 1);
    await attach(a, 'older.txt', 'y'.repeat(30), 'ready', 60);
    await attach(a, 'pending.txt', 'not yet', 'pending', 30);
    await attach(b, 'only.txt', 'z'.repeat(30), 'ready', 5);

    const many = await attachmentExcerptsOfMany(test.core.db, [a, b, none], 40);
    expect([...many.keys()].sort()).toEqual([a, b].sort());
    expect(many.get(a)).toEqual([
      { name: 'older.txt', text: 'y'.repeat(20) },
      { name: 'newer.txt', text: 'x'.repeat(20) },
    ]);
    // Alone in its debate, b's attachment keeps what its budget allows, not a share of a's.
    expect(many.get(b)).toEqual([{ name: 'only.txt', text: 'z'.repeat(30) }]);
    expect(await attachmentExcerptsFor(test.core.db, a, 40)).toEqual(many.get(a));
    expect(await attachmentExcerptsFor(test.core.db, none)).toEqual([]);
  });
});
