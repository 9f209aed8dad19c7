import { describe, expect, it } from 'vitest';
import { createConcurrencyLimit } from './concurrency-limit.ts';

const deferred = () => {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
};

describe('concurrency limit', () => {
  it('runs at most `concurrency` tasks at once and starts the queued ones in order as slots free up', async () => {
    const limit = createConcurrencyLimit(2, 10, () => new Error('full'));
    const gates = [deferred(), deferred(), deferred(), deferred()];
    const started: number[] = [];
    const runs = gates.map((gate, i) =>
      limit.run(async () => {
        started.push(i);
        await gate.promise;
        return i;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    expect({ active: limit.active, queued: limit.queued }).toEqual({ active: 2, queued: 2 });
    gates[1]?.resolve();
    await runs[1];
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2]);
    for (const gate of gates) gate.resolve();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3]);
    expect({ active: limit.active, queued: limit.queued }).toEqual({ active: 0, queued: 0 });
  });

  it('refuses at once with whenFull() when the queue is full, and frees the slot of a task that throws', async () => {
    const limit = createConcurrencyLimit(1, 1, () => new Error('busy'));
    const gate = deferred();
    const first = limit.run(() => gate.promise);
    const second = limit.run(async () => {
      throw new Error('task failed');
    });
    await expect(limit.run(async () => 'third')).rejects.toThrow('busy');
    gate.resolve();
    await first;
    await expect(second).rejects.toThrow('task failed');
    expect(await limit.run(async () => 'after')).toBe('after');
    expect(limit.active).toBe(0);
  });
});
