import type { DebateEvent } from '@verdict/contracts';
import { describe, expect, it } from 'vitest';
import { memoryBus } from '../bus/memory.ts';
import type { EventBus } from '../bus/ports.ts';
import { type FeedFollower, type FeedStorage, fanOutEvents } from './event-fanout.ts';
import type { StoredEvent } from './stored-event.ts';

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

/** A stored log in memory, counting the reads made of it. */
function storedLog(events: StoredEvent[] = [], current = true) {
  let reads = 0;
  const storage: FeedStorage = {
    storedAfter: async (_debateId, _attempt, afterSeq) => {
      reads += 1;
      return events.filter((e) => e.seq > afterSeq);
    },
    isCurrent: async () => current,
    // Every debate asked for is on attempt 1 while current.
    currentAttempts: async (ids) => new Map(current ? ids.map((id) => [id, 1]) : []),
  };
  return { storage, events, reads: () => reads, end: () => (current = false) };
}

const noErrors = (error: unknown) => {
  throw error;
};

/** A follower collecting the seqs it was given, and whether it was told the feed lost events or ended. */
function collector() {
  const seqs: number[] = [];
  let lost = false;
  let ended = 0;
  return {
    seqs,
    lost: () => lost,
    ended: () => ended,
    onEvent: (e: StoredEvent) => seqs.push(e.seq),
    onLost: () => (lost = true),
    onEnded: () => (ended += 1),
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('following a debate through one subscription per attempt', () => {
  it('gives a thousand followers every event once, in order, over one subscription', async () => {
    const counted = countedBus();
    const feeds = fanOutEvents(counted.follow, storedLog().storage, noErrors);
    const followers = Array.from({ length: 1000 }, collector);
    const stops = await Promise.all(followers.map((f) => feeds.follow('d1', 1, 0, f)));
    for (let seq = 1; seq <= 5; seq++) await counted.bus.publish(event(seq));
    expect(counted.made()).toBe(1);
    expect(followers.every((f) => f.seqs.join() === '1,2,3,4,5')).toBe(true);
    for (const stop of stops) stop();
    expect(counted.open()).toBe(0);
    expect(feeds.following()).toEqual({ attempts: 0, followers: 0 });
  });

  it("replays a late follower what came after its afterSeq, then goes on live, without the other attempt's", async () => {
    const counted = countedBus();
    const feeds = fanOutEvents(counted.follow, storedLog().storage, noErrors);
    const early = collector();
    const stopEarly = await feeds.follow('d1', 1, 0, early);
    for (let seq = 1; seq <= 4; seq++) await counted.bus.publish(event(seq));
    await counted.bus.publish(event(1, 2));
    const late = collector();
    const stopLate = await feeds.follow('d1', 1, 2, late);
    await counted.bus.publish(event(5));
    expect(late.seqs).toEqual([3, 4, 5]);
    expect(early.seqs).toEqual([1, 2, 3, 4, 5]);
    expect(counted.made()).toBe(1);
    stopEarly();
    stopLate();
  });

  it('reads what the bus skipped from storage once for all followers, before the event that showed the gap', async () => {
    const counted = countedBus();
    const log = storedLog([1, 2, 3, 4].map((seq) => ({ seq, type: 'debate.paused', data: {} })));
    const feeds = fanOutEvents(counted.follow, log.storage, noErrors);
    const followers = [collector(), collector(), collector()];
    for (const f of followers) await feeds.follow('d1', 1, 0, f);
    await counted.bus.publish(event(1));
    await counted.bus.publish(event(4)); // 2 and 3 were stored, never published
    await settle();
    expect(followers.map((f) => f.seqs.join())).toEqual(['1,2,3,4', '1,2,3,4', '1,2,3,4']);
    expect(log.reads()).toBe(1);
  });

  it('looks at storage once per attempt however many followers ask, and says when the attempt is gone', async () => {
    const counted = countedBus();
    const log = storedLog([{ seq: 1, type: 'round.started', data: {} }]);
    const feeds = fanOutEvents(counted.follow, log.storage, noErrors);
    const followers = [collector(), collector()];
    for (const f of followers) await feeds.follow('d1', 1, 0, f);
    const answers = await Promise.all([feeds.check('d1', 1, 250, 1000), feeds.check('d1', 1, 250, 1100)]);
    expect(answers).toEqual([true, true]);
    expect(log.reads()).toBe(1);
    expect(followers.map((f) => f.seqs.join())).toEqual(['1', '1']);
    log.end();
    expect(await feeds.check('d1', 1, 250, 1300)).toBe(false);
    expect(log.reads()).toBe(2);
  });

  it('tells its followers when it cannot read what the bus skipped', async () => {
    const counted = countedBus();
    const errors: unknown[] = [];
    const failing: FeedStorage = {
      storedAfter: async () => {
        throw new Error('database away');
      },
      isCurrent: async () => true,
      currentAttempts: async () => new Map(),
    };
    const feeds = fanOutEvents(counted.follow, failing, (error) => errors.push(error));
    const follower = collector();
    await feeds.follow('d1', 1, 0, follower);
    await counted.bus.publish(event(2));
    await settle();
    expect(follower.lost()).toBe(true);
    expect(errors).toHaveLength(1);
  });

  it('subscribes again once everyone left, and the new subscription replays from the bus', async () => {
    const counted = countedBus();
    const feeds = fanOutEvents(counted.follow, storedLog().storage, noErrors);
    (await feeds.follow('d1', 1, 0, collector()))();
    await counted.bus.publish(event(1));
    const again = collector();
    const stop = await feeds.follow('d1', 1, 0, again);
    expect(again.seqs).toEqual([1]);
    expect(counted.made()).toBe(2);
    stop();
    stop(); // twice is once
    expect(counted.open()).toBe(0);
  });

  it('keeps delivering to the others when one follower throws', async () => {
    const counted = countedBus();
    const errors: unknown[] = [];
    const feeds = fanOutEvents(counted.follow, storedLog().storage, (error) => errors.push(error));
    await feeds.follow('d1', 1, 0, {
      onEvent: () => {
        throw new Error('broken client');
      },
      onLost: () => {},
      onEnded: () => {},
    });
    const other = collector();
    await feeds.follow('d1', 1, 0, other);
    await counted.bus.publish(event(1));
    expect(other.seqs).toEqual([1]);
    expect(errors).toHaveLength(1);
  });

  it('tells the followers of the ended attempts, and only them, when an end is heard', async () => {
    const counted = countedBus();
    const feeds = fanOutEvents(counted.follow, storedLog().storage, noErrors);
    const first = [collector(), collector()];
    const second = collector();
    for (const f of first) await feeds.follow('d1', 1, 0, f);
    await feeds.follow('d1', 2, 0, second);
    const elsewhere = collector();
    await feeds.follow('d2', 1, 0, elsewhere);
    feeds.attemptEnded('d1', 1); // retried: attempt 1 ended, attempt 2 goes on
    expect(first.map((f) => f.ended())).toEqual([1, 1]);
    expect([second.ended(), elsewhere.ended()]).toEqual([0, 0]);
    feeds.attemptEnded('d1', 2); // deleted while on attempt 2
    expect(second.ended()).toBe(1);
    expect(elsewhere.ended()).toBe(0);
  });

  it('answers checks without storage while ends are heard, and looks again at the followed attempts once they may have been missed', async () => {
    const counted = countedBus();
    const log = storedLog([{ seq: 1, type: 'round.started', data: {} }]);
    let looks = 0;
    const storage: FeedStorage = {
      storedAfter: log.storage.storedAfter,
      isCurrent: async (...args) => {
        looks += 1;
        return log.storage.isCurrent(...args);
      },
      currentAttempts: async (ids) => {
        looks += 1;
        return log.storage.currentAttempts(ids);
      },
    };
    const feeds = fanOutEvents(counted.follow, storage, noErrors);
    const followers = [collector(), collector()];
    await feeds.follow('d1', 1, 0, followers[0] as FeedFollower);
    await feeds.follow('d2', 1, 0, followers[1] as FeedFollower);
    // Listening starts after the first follows: the followed attempts are looked at in one read, then checks
    // cost nothing.
    feeds.hearingEnds(true);
    await settle();
    expect(looks).toBe(1);
    expect(await feeds.check('d1', 1, 250, 1000)).toBe(true);
    expect(await feeds.check('d1', 1, 250, 2000)).toBe(true);
    expect([log.reads(), looks]).toEqual([0, 1]);
    // The notifications' connection is lost: checks look at storage (the stored event arrives that way).
    feeds.hearingEnds(false);
    expect(await feeds.check('d1', 1, 250, 3000)).toBe(true);
    expect([log.reads(), looks]).toEqual([1, 2]);
    expect(followers[0]?.seqs).toEqual([1]);
    // Meanwhile the debates were deleted unheard: hearing again, one read finds it for both.
    log.end();
    feeds.hearingEnds(true);
    await settle();
    expect(looks).toBe(3);
    expect(followers.map((f) => f.ended())).toEqual([1, 1]);
    feeds.hearingEnds(true); // already hearing: nothing to look at
    await settle();
    expect(looks).toBe(3);
  });

  it('looks once at the attempts followers joined while ends were heard: an end that came before they joined is told them, once', async () => {
    const counted = countedBus();
    const log = storedLog();
    let looks = 0;
    let failNext = false;
    const storage: FeedStorage = {
      ...log.storage,
      currentAttempts: async (ids) => {
        looks += 1;
        if (failNext) {
          failNext = false;
          throw new Error('storage away');
        }
        return log.storage.currentAttempts(ids);
      },
    };
    const errors: unknown[] = [];
    const feeds = fanOutEvents(counted.follow, storage, (error) => errors.push(error));
    feeds.hearingEnds(true);
    // Three streams open together on a debate still current: one look for all, nobody told.
    const open = [collector(), collector(), collector()];
    await Promise.all(open.map((f, i) => feeds.follow(`d${i}`, 1, 0, f)));
    await settle();
    expect(looks).toBe(1);
    expect(open.map((f) => f.ended())).toEqual([0, 0, 0]);
    // The debate was deleted after a stream read it and before it joined (the end heard with nobody to tell):
    // the look finds it; the end then heard as well is not told twice.
    log.end();
    const late = collector();
    await feeds.follow('d0', 1, 0, late);
    await settle();
    expect(late.ended()).toBe(1);
    feeds.attemptEnded('d0', 1);
    expect(late.ended()).toBe(1);
    // A look that fails is made again a second later for the same followers, not taken for an end.
    failNext = true;
    const unlucky = collector();
    await feeds.follow('d9', 1, 0, unlucky);
    await settle();
    expect([errors.length, unlucky.ended(), unlucky.lost()]).toEqual([1, 0, false]);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(unlucky.ended()).toBe(1);
    expect(looks).toBe(4);
  });
});
