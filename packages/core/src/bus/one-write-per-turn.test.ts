import { describe, expect, it } from 'vitest';
import { oneWritePerTurn } from './one-write-per-turn.ts';

describe('publishes asked for in one turn of the event loop', () => {
  it('start together after the turn, each settling as its own publish did', async () => {
    const soon = oneWritePerTurn();
    const started: string[] = [];
    const publish =
      (name: string, fails = false) =>
      () => {
        started.push(name);
        return fails ? Promise.reject(new Error(`${name} refused`)) : Promise.resolve();
      };
    const first = soon(publish('a'));
    const second = soon(publish('b', true));
    await Promise.resolve();
    expect(started).toEqual([]); // not within the turn that asked
    const third = new Promise<void>((resolve) => setTimeout(() => resolve(soon(publish('c'))), 5));
    await expect(first).resolves.toBeUndefined();
    expect(started).toEqual(['a', 'b']); // the turn's two, together, before the later one
    await expect(second).rejects.toThrow('b refused');
    await expect(third).resolves.toBeUndefined();
    expect(started).toEqual(['a', 'b', 'c']);
  });
});
