import { describe, expect, it } from 'vitest';
import { type CounterRow, coalescedIncrements, rowKey } from './coalesced-increments.ts';

/** Counters in memory behind a statement that takes a few milliseconds, recording each statement. */
function slowTable(delayMs = 3) {
  const counts = new Map<string, number>();
  const statements: CounterRow[][] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  let failNext = false;
  const write = async (rows: CounterRow[]) => {
    statements.push(rows);
    inFlight += 1;
    mostInFlight = Math.max(mostInFlight, inFlight);
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    inFlight -= 1;
    if (failNext) {
      failNext = false;
      throw new Error('connection lost');
    }
    const result = new Map<string, number>();
    for (const { bucket, window, by } of rows) {
      const key = rowKey(bucket, window);
      counts.set(key, (counts.get(key) ?? 0) + by);
      result.set(key, counts.get(key) ?? 0);
    }
    return result;
  };
  return { write, counts, statements, mostInFlight: () => mostInFlight, failOnce: () => (failNext = true) };
}

describe('coalesced counter increments', () => {
  it('give every one of 1,000 concurrent increments its own count, 1 to 1,000, in far fewer statements', async () => {
    const table = slowTable();
    const increment = coalescedIncrements(table.write, 3);
    const counts = await Promise.all(Array.from({ length: 1000 }, () => increment('account:a', 7, 60_000)));
    expect([...counts].sort((a, b) => a - b)).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
    expect(table.counts.get(rowKey('account:a', 7))).toBe(1000);
    expect(table.statements.length).toBeLessThan(20);
    expect(table.mostInFlight()).toBeLessThanOrEqual(3);
  });

  it('keep counters apart, and write each statement in key order', async () => {
    const table = slowTable();
    const increment = coalescedIncrements(table.write, 2);
    const made = await Promise.all(
      ['key:z', 'account:b', 'key:z', 'account:b', 'key:z'].map((bucket) => increment(bucket, 1, 60_000)),
    );
    expect(made).toEqual([1, 1, 2, 2, 3]);
    for (const rows of table.statements) {
      const keys = rows.map((row) => rowKey(row.bucket, row.window));
      expect(keys).toEqual([...keys].sort());
    }
  });

  it('send an unloaded increment at once, alone', async () => {
    const table = slowTable();
    const increment = coalescedIncrements(table.write, 3);
    expect(await increment('account:c', 1, 60_000)).toBe(1);
    expect(await increment('account:c', 1, 60_000)).toBe(2);
    expect(table.statements.map((rows) => rows[0]?.by)).toEqual([1, 1]);
  });

  it('fail the increments of a failed statement, and go on with the next', async () => {
    const table = slowTable();
    const increment = coalescedIncrements(table.write, 1);
    table.failOnce();
    const first = await Promise.allSettled([
      increment('account:d', 1, 60_000),
      increment('account:d', 1, 60_000),
    ]);
    expect(first.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect(await increment('account:d', 1, 60_000)).toBe(1);
  });
});
