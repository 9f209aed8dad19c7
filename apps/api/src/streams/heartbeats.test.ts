import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { everyBeat } from './heartbeats.ts';

describe('beats on a shared wheel', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('beats every interval, give or take an eighth, each stream from its own start', () => {
    const beats: Record<string, number[]> = { a: [], b: [] };
    const t0 = Date.now();
    const stops = [everyBeat(800, () => beats.a?.push(Date.now() - t0))];
    vi.advanceTimersByTime(300);
    stops.push(everyBeat(800, () => beats.b?.push(Date.now() - t0)));
    vi.advanceTimersByTime(2500);
    const start = { a: 0, b: 300 };
    for (const name of ['a', 'b'] as const) {
      const times = beats[name] ?? [];
      expect(times.length).toBeGreaterThanOrEqual(2);
      expect(times[0]! - start[name]).toBeGreaterThanOrEqual(700);
      expect(times[0]! - start[name]).toBeLessThanOrEqual(800);
      for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBe(800);
    }
    for (const stop of stops) stop();
  });

  it('keeps one timer for every stream of an interval, none once the last stops', () => {
    const before = vi.getTimerCount();
    const stops = Array.from({ length: 1000 }, () => everyBeat(15_000, () => {}));
    expect(vi.getTimerCount() - before).toBe(1);
    for (const stop of stops.slice(1)) stop();
    expect(vi.getTimerCount() - before).toBe(1);
    stops[0]?.();
    stops[0]?.(); // twice is once
    expect(vi.getTimerCount()).toBe(before);
  });

  it('stops beating a stream that stopped, and a beat that throws leaves the others beating', () => {
    let quiet = 0;
    let kept = 0;
    const stopQuiet = everyBeat(400, () => {
      quiet += 1;
    });
    const stopThrowing = everyBeat(400, () => {
      throw new Error('a broken stream');
    });
    const stopKept = everyBeat(400, () => {
      kept += 1;
    });
    vi.advanceTimersByTime(400);
    expect([quiet, kept]).toEqual([1, 1]);
    stopQuiet();
    vi.advanceTimersByTime(800);
    expect([quiet, kept]).toEqual([1, 3]);
    stopThrowing();
    stopKept();
  });
});
