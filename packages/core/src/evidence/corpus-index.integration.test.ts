import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertDebate, insertUser } from '../testing/corpus-fixtures.ts';
import { createTestCore, type TestCore } from '../testing/index.ts';
import { buildCorpus, retrievePassages } from './corpus.ts';
import { heldCorpusIndexes, releaseCorpusIndex } from './corpus-index.ts';

describe("a debate's ranking index in the process", () => {
  let test: TestCore;
  beforeAll(async () => {
    test = await createTestCore({}, { database: 'pglite' });
  });
  afterAll(async () => {
    await test?.cleanup();
  });

  it('is held from its first retrieval until released, and read afresh after', async () => {
    const { db } = test.core;
    const owner = await insertUser(db);
    const context = 'Churn doubled after the price rise. Support tickets about invoices rose by a third.';
    const [first, second] = [
      await insertDebate(db, owner, { context }),
      await insertDebate(db, owner, { context }),
    ];
    for (const debate of [first, second]) await buildCorpus(db, debate);
    const ask = (debate: string) =>
      retrievePassages(db, debate, { query: 'What happened to churn?', budgetChars: 6_000 });

    const before = await ask(first);
    await ask(second);
    expect(heldCorpusIndexes(db)).toEqual([first, second]);
    releaseCorpusIndex(db, first);
    expect(heldCorpusIndexes(db)).toEqual([second]);
    // Released, it is read again from the database, with the same answer.
    expect(await ask(first)).toEqual(before);
    expect(heldCorpusIndexes(db)).toEqual([second, first]);
  });
});
