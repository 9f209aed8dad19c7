import { describe, expect, it } from 'vitest';
import { createConcurrencyLimit } from './concurrency-limit.ts';

const deferred = () => {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
};

const full = () => new Error('full');

describe('concurrency limit', () => {
  it('runs at most `concurrency` tasks at once and starts the queued ones in order as slots free up', async () => {
    const limit = createConcurrencyLimit(2, { only: { maxQueued: 10 } }, full);
    const gates = [deferred(), deferred(), deferred(), deferred()];
    const started: number[] = [];
    const runs = gates.map((gate, i) =>
      limit.run('only', async () => {
        started.push(i);
        await gate.promise;
        return i;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    expect({ active: limit.active, queued: limit.queued('only') }).toEqual({ active: 2, queued: 2 });
    gates[1]?.resolve();
    await runs[1];
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2]);
    for (const gate of gates) gate.resolve();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3]);
    expect({ active: limit.active, queued: limit.queued('only') }).toEqual({ active: 0, queued: 0 });
  });

  it('refuses at once with whenFull() when the lane is full, and frees the slot of a task that throws', async () => {
    const limit = createConcurrencyLimit(1, { only: { maxQueued: 1 } }, () => new Error('busy'));
    const gate = deferred();
    const first = limit.run('only', () => gate.promise);
    const second = limit.run('only', async () => {
      throw new Error('task failed');
    });
    await expect(limit.run('only', async () => 'third')).rejects.toThrow('busy');
    gate.resolve();
    await first;
    await expect(second).rejects.toThrow('task failed');
    expect(await limit.run('only', async () => 'after')).toBe('after');
    expect(limit.active).toBe(0);
  });

  it('gives a freed slot to the first lane with someone waiting: a flood in a later lane never jumps ahead', async () => {
    const limit = createConcurrencyLimit(1, { urgent: { maxQueued: 10 }, bulk: { maxQueued: 2 } }, full);
    const gate = deferred();
    const order: string[] = [];
    const track = (name: string) => async () => {
      order.push(name);
    };
    const running = limit.run('bulk', () => gate.promise);
    const bulk = [limit.run('bulk', track('bulk 1')), limit.run('bulk', track('bulk 2'))];
    await expect(limit.run('bulk', track('bulk 3'))).rejects.toThrow('full');
    const urgent = limit.run('urgent', track('urgent'));
    gate.resolve();
    await Promise.all([running, urgent, ...bulk]);
    expect(order).toEqual(['urgent', 'bulk 1', 'bulk 2']);
  });
});
