import { describe, expect, it } from 'vitest';
import { coalescedCalls, coalescedWrites } from './coalesced-writes.ts';

type Item = { key: string; bad?: boolean };

/** A statement double that records what each statement carried and writes every key not marked `lost`. */
function recorder(options: { lost?: Set<string>; delayMs?: number } = {}) {
  const statements: string[][] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  const write = async (items: readonly Item[]) => {
    statements.push(items.map((item) => item.key));
    inFlight += 1;
    mostInFlight = Math.max(mostInFlight, inFlight);
    await new Promise((resolve) => setTimeout(resolve, options.delayMs ?? 1));
    inFlight -= 1;
    if (items.some((item) => item.bad)) throw new Error(`refused: ${items.length} rows`);
    return new Set(items.map((item) => item.key).filter((key) => !options.lost?.has(key)));
  };
  return { write, statements, mostInFlight: () => mostInFlight };
}

const options = { keyOf: (item: Item) => item.key, maxInFlight: 3, maxPerStatement: 100 };

describe('coalesced writes', () => {
  it('sends a lone write at once, as a statement of one', async () => {
    const db = recorder();
    const write = coalescedWrites(db.write, options);
    expect(await write({ key: 'a' })).toBe(true);
    expect(db.statements).toEqual([['a']]);
  });

  it('joins writes made together into few statements, each told whether its own row was written', async () => {
    const lost = new Set(['k7', 'k500', 'k999']);
    const db = recorder({ lost });
    const write = coalescedWrites(db.write, { ...options, maxPerStatement: 200 });
    const keys = Array.from({ length: 1000 }, (_, i) => `k${i}`);
    const written = await Promise.all(keys.map((key) => write({ key })));
    expect(written).toEqual(keys.map((key) => !lost.has(key)));
    expect(db.statements.length).toBeLessThanOrEqual(5);
    expect(db.statements.flat().sort()).toEqual([...keys].sort());
    expect(Math.max(...db.statements.map((s) => s.length))).toBeLessThanOrEqual(200);
  });

  it('keeps at most maxInFlight statements out, and sends what arrives meanwhile in the next', async () => {
    const db = recorder({ delayMs: 5 });
    const write = coalescedWrites(db.write, options);
    const all: Promise<boolean>[] = [];
    for (let i = 0; i < 40; i++) {
      all.push(write({ key: `k${i}` }));
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    expect(await Promise.all(all)).toEqual(all.map(() => true));
    expect(db.mostInFlight()).toBe(3);
    expect(db.statements.length).toBeLessThan(40);
  });

  it('never puts two writes of one row in the same statement', async () => {
    const db = recorder();
    const write = coalescedWrites(db.write, options);
    await Promise.all([write({ key: 'a' }), write({ key: 'a' }), write({ key: 'b' })]);
    for (const statement of db.statements) expect(new Set(statement).size).toBe(statement.length);
    expect(db.statements.flat().filter((key) => key === 'a')).toHaveLength(2);
  });

  it('fails only the write the database refuses: a failed statement is tried again row by row', async () => {
    const db = recorder();
    const write = coalescedWrites(db.write, options);
    const results = await Promise.allSettled([
      write({ key: 'a' }),
      write({ key: 'bad', bad: true }),
      write({ key: 'c' }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toEqual(new Error('refused: 1 rows'));
    expect(db.statements).toEqual([['a', 'bad', 'c'], ['a'], ['bad'], ['c']]);
  });

  it('goes on after a failure: the next writes are sent', async () => {
    const db = recorder();
    const write = coalescedWrites(db.write, { ...options, maxInFlight: 1 });
    await expect(write({ key: 'x', bad: true })).rejects.toThrow('refused');
    expect(await write({ key: 'y' })).toBe(true);
  });

  it('answers each caller with its own row, and resumes the callers of one statement a turn each when asked', async () => {
    const rowsOf = async (items: readonly Item[]) =>
      new Map(items.filter((item) => item.key !== 'none').map((item) => [item.key, `row of ${item.key}`]));
    /** The order callers resume in, and when the work each queued for the loop's next turn runs. */
    const order = async (oneCallerATurn: boolean) => {
      const call = coalescedCalls(rowsOf, { ...options, oneCallerATurn });
      const seen: string[] = [];
      await Promise.all(
        ['a', 'b', 'c'].map((key) =>
          call({ key }).then((row) => {
            seen.push(String(row));
            setImmediate(() => seen.push(`next turn of ${key}`));
          }),
        ),
      );
      await new Promise((resolve) => setTimeout(resolve, 5));
      return seen;
    };
    const together = await order(false);
    expect(together.slice(0, 3)).toEqual(['row of a', 'row of b', 'row of c']);
    // One a turn: the loop gets to what the first caller queued before the last caller resumes.
    const spread = await order(true);
    expect(spread.filter((s) => s.startsWith('row of'))).toEqual(['row of a', 'row of b', 'row of c']);
    expect(spread.indexOf('next turn of a')).toBeLessThan(spread.indexOf('row of c'));
    expect(spread).toHaveLength(6);
    // No row for an item: its caller gets undefined.
    expect(await coalescedCalls(rowsOf, options)({ key: 'none' })).toBeUndefined();
  });
});
