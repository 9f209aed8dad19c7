import { describe, expect, it } from 'vitest';
import { cachedRead } from './scrape-reads.ts';

describe('a read shared by scrapes', () => {
  it('reads once for the scrapes within its time to live, and again after it', async () => {
    let now = 0;
    let reads = 0;
    const read = cachedRead(
      async () => ++reads,
      5_000,
      () => now,
    );
    expect(await Promise.all([read(), read()])).toEqual([1, 1]);
    now = 4_999;
    expect(await read()).toBe(1);
    now = 5_000;
    expect(await read()).toBe(2);
    expect(reads).toBe(2);
  });

  it('keeps no failure: the next scrape reads again', async () => {
    let reads = 0;
    const read = cachedRead(
      async () => {
        reads++;
        if (reads === 1) throw new Error('database away');
        return reads;
      },
      5_000,
      () => 0,
    );
    await expect(read()).rejects.toThrow('database away');
    expect(await read()).toBe(2);
  });
});
