import { describe, expect, it } from 'vitest';
import { memoryCounterStore } from './counter-store.ts';
import { hitFixedWindow, hitSlidingWindow } from './limiters.ts';

function fakeClock(start: number) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('fixed window', () => {
  it('allows the limit, refuses the next with a retry-after that ends at the window boundary', async () => {
    const clock = fakeClock(120_000 + 15_000); // 15 s into a minute window
    const store = memoryCounterStore(clock.now);
    const decisions = [];
    for (let i = 0; i < 4; i++) decisions.push(await hitFixedWindow(store, clock, 'k', 3, 60_000));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false]);
    expect(decisions.map((d) => d.remaining)).toEqual([2, 1, 0, 0]);
    expect(decisions[3]?.retryAfter).toBe(45);
    expect(decisions[3]?.resetAt).toBe(180);
    await store.close();
  });

  it('starts afresh in the next window', async () => {
    const clock = fakeClock(0);
    const store = memoryCounterStore(clock.now);
    for (let i = 0; i < 3; i++) await hitFixedWindow(store, clock, 'k', 2, 60_000);
    clock.advance(60_000);
    expect((await hitFixedWindow(store, clock, 'k', 2, 60_000)).allowed).toBe(true);
    await store.close();
  });

  it('counts buckets separately', async () => {
    const clock = fakeClock(0);
    const store = memoryCounterStore(clock.now);
    await hitFixedWindow(store, clock, 'a', 1, 60_000);
    expect((await hitFixedWindow(store, clock, 'b', 1, 60_000)).allowed).toBe(true);
    expect((await hitFixedWindow(store, clock, 'a', 1, 60_000)).allowed).toBe(false);
    await store.close();
  });
});

describe('sliding window', () => {
  it('carries the weighted previous window, so a burst at the boundary is refused', async () => {
    const clock = fakeClock(60_000 - 1); // last millisecond of window 0
    const store = memoryCounterStore(clock.now);
    for (let i = 0; i < 30; i++)
      expect((await hitSlidingWindow(store, clock, 'ip', 30, 60_000)).allowed).toBe(true);
    clock.advance(2); // just into window 1: nearly all of window 0 still overlaps
    const refused = await hitSlidingWindow(store, clock, 'ip', 30, 60_000);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfter).toBeGreaterThanOrEqual(1);
    await store.close();
  });

  it('lets requests through again as the previous window slides out', async () => {
    const clock = fakeClock(0);
    const store = memoryCounterStore(clock.now);
    for (let i = 0; i < 30; i++) await hitSlidingWindow(store, clock, 'ip', 30, 60_000);
    clock.advance(60_000 + 30_000); // half of window 0 overlaps: weight 15
    const decisions = [];
    for (let i = 0; i < 16; i++)
      decisions.push((await hitSlidingWindow(store, clock, 'ip', 30, 60_000)).allowed);
    expect(decisions.filter(Boolean)).toHaveLength(15);
    await store.close();
  });
});
