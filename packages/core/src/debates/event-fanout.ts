import type { DebateEvent } from '@verdict/contracts';
import type { EventBus } from '../bus/ports.ts';

type Follower = (event: DebateEvent) => void;

/** One debate attempt's subscription, shared by every follower of it in this process. */
type Feed = {
  /** Every event of the attempt the subscription delivered, in order: what a late follower is replayed. */
  events: DebateEvent[];
  lastSeq: number;
  followers: Set<Follower>;
  subscription: Promise<() => void>;
};

/**
 * `EventBus.follow` with one bus subscription per debate attempt in this process, however many follow it:
 * a thousand streams of one debate cost one consumer on the bus and one decoding of each event, not a
 * thousand. The feed keeps the attempt's events while anyone follows, so a follower that joins late is
 * replayed those after its `afterSeq` from memory, then gets the live ones, exactly as its own subscription
 * would have delivered them. The last follower to leave ends the subscription.
 */
export function fanOutFollow(follow: EventBus['follow'], onFollowerError: (error: unknown) => void) {
  const feeds = new Map<string, Feed>();

  const open = (debateId: string, attempt: number): Feed => {
    const key = `${debateId}:${attempt}`;
    const existing = feeds.get(key);
    if (existing) return existing;
    const feed: Feed = {
      events: [],
      lastSeq: 0,
      followers: new Set(),
      subscription: Promise.resolve(() => {}),
    };
    feed.subscription = follow(debateId, attempt, 0, (event) => {
      if (event.seq <= feed.lastSeq) return; // redelivered
      feed.lastSeq = event.seq;
      feed.events.push(event);
      for (const follower of feed.followers) {
        try {
          follower(event);
        } catch (error) {
          onFollowerError(error); // one follower's failure is not the others'
        }
      }
    });
    feeds.set(key, feed);
    const forget = () => {
      if (feeds.get(key) === feed) feeds.delete(key);
    };
    feed.subscription.then(
      (stop) => {
        // Everyone left while the subscription was being made.
        if (feed.followers.size === 0) {
          forget();
          stop();
        }
      },
      forget, // the next follower tries again
    );
    return feed;
  };

  const follower: EventBus['follow'] = async (debateId, attempt, afterSeq, onEvent) => {
    const feed = open(debateId, attempt);
    const deliver: Follower = (event) => {
      if (event.seq > afterSeq) onEvent(event);
    };
    for (const event of feed.events) deliver(event);
    feed.followers.add(deliver);
    let stop: () => void;
    try {
      stop = await feed.subscription;
    } catch (error) {
      feed.followers.delete(deliver);
      throw error;
    }
    return () => {
      if (!feed.followers.delete(deliver) || feed.followers.size > 0) return;
      if (feeds.get(`${debateId}:${attempt}`) === feed) feeds.delete(`${debateId}:${attempt}`);
      stop();
    };
  };

  return Object.assign(follower, {
    /** Debate attempts with a live subscription in this process (for tests and metrics). */
    feeds: () => feeds.size,
    /** Followers of them all: the open streams that follow a debate. */
    followers: () => [...feeds.values()].reduce((sum, feed) => sum + feed.followers.size, 0),
  });
}
