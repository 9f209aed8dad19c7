import type { DebateEvent } from '@verdict/contracts';
import { describe, expect, it } from 'vitest';
import { memoryBus } from '../bus/memory.ts';
import type { EventBus } from '../bus/ports.ts';
import { fanOutFollow } from './event-fanout.ts';

const event = (seq: number, attempt = 1): DebateEvent => ({
  debateId: 'd1',
  attempt,
  seq,
  at: new Date(0).toISOString(),
  type: 'debate.paused',
  data: { afterRound: seq },
});

/** The in-process bus, counting the subscriptions made on it and those still open. */
function countedBus() {
  const bus = memoryBus().events;
  let made = 0;
  let open = 0;
  const follow: EventBus['follow'] = async (...args) => {
    made += 1;
    open += 1;
    const stop = await bus.follow(...args);
    return () => {
      open -= 1;
      stop();
    };
  };
  return { bus, follow, made: () => made, open: () => open };
}

describe('following a debate through one subscription per attempt', () => {
  it('gives a thousand followers every event once, in order, over one subscription', async () => {
    const counted = countedBus();
    const follow = fanOutFollow(counted.follow, (error) => {
      throw error;
    });
    const seen = Array.from({ length: 1000 }, () => [] as number[]);
    const stops = await Promise.all(seen.map((got) => follow('d1', 1, 0, (e) => got.push(e.seq))));
    for (let seq = 1; seq <= 5; seq++) await counted.bus.publish(event(seq));
    expect(counted.made()).toBe(1);
    expect(seen.every((got) => got.join() === '1,2,3,4,5')).toBe(true);
    for (const stop of stops) stop();
    expect(counted.open()).toBe(0);
    expect(follow.feeds()).toBe(0);
  });

  it("replays a late follower what came after its afterSeq, then goes on live, without the other attempt's", async () => {
    const counted = countedBus();
    const follow = fanOutFollow(counted.follow, () => {});
    const early: number[] = [];
    const stopEarly = await follow('d1', 1, 0, (e) => early.push(e.seq));
    for (let seq = 1; seq <= 4; seq++) await counted.bus.publish(event(seq));
    await counted.bus.publish(event(1, 2));
    const late: number[] = [];
    const stopLate = await follow('d1', 1, 2, (e) => late.push(e.seq));
    await counted.bus.publish(event(5));
    expect(late).toEqual([3, 4, 5]);
    expect(early).toEqual([1, 2, 3, 4, 5]);
    expect(counted.made()).toBe(1);
    stopEarly();
    stopLate();
  });

  it('subscribes again once everyone left, and the new subscription replays from the bus', async () => {
    const counted = countedBus();
    const follow = fanOutFollow(counted.follow, () => {});
    (await follow('d1', 1, 0, () => {}))();
    await counted.bus.publish(event(1));
    const got: number[] = [];
    const stop = await follow('d1', 1, 0, (e) => got.push(e.seq));
    expect(got).toEqual([1]);
    expect(counted.made()).toBe(2);
    stop();
    stop(); // twice is once
    expect(counted.open()).toBe(0);
  });

  it('keeps delivering to the others when one follower throws', async () => {
    const counted = countedBus();
    const errors: unknown[] = [];
    const follow = fanOutFollow(counted.follow, (error) => errors.push(error));
    await follow('d1', 1, 0, () => {
      throw new Error('broken client');
    });
    const got: number[] = [];
    await follow('d1', 1, 0, (e) => got.push(e.seq));
    await counted.bus.publish(event(1));
    expect(got).toEqual([1]);
    expect(errors).toHaveLength(1);
  });
});
