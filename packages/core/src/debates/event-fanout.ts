import type { EventBus } from '../bus/ports.ts';
import type { StoredEvent } from './stored-event.ts';

/** Where a feed reads what the bus did not bring: the stored log, which has every event. */
export type FeedStorage = {
  storedAfter: (debateId: string, attempt: number, afterSeq: number) => Promise<StoredEvent[]>;
  isCurrent: (debateId: string, attempt: number) => Promise<boolean>;
  /** The current attempt of each debate that is not deleted, in one read. */
  currentAttempts: (debateIds: string[]) => Promise<Map<string, number>>;
};

/** Called as methods (`follower.onEvent(event)`): a follower may be an object of a class. */
export type FeedFollower = {
  /** The attempt's events after the follower's afterSeq, each once, in order, without a gap. */
  onEvent(event: StoredEvent): void;
  /** The feed could not read what the bus skipped: the follower cannot be sure to get every event. */
  onLost(): void;
  /** The attempt ended without its last event: the debate was deleted, or retried as a new attempt. */
  onEnded(): void;
};

/**
 * A follower as its feed holds it: events at or before its `afterSeq` held back, its end told once (whether
 * heard or found by the look after joining). A class, not closures: an idle stream holds one for hours.
 */
class Membership implements FeedFollower {
  readonly #afterSeq: number;
  readonly #follower: FeedFollower;
  #ended = false;

  constructor(afterSeq: number, follower: FeedFollower) {
    this.#afterSeq = afterSeq;
    this.#follower = follower;
  }

  onEvent(event: StoredEvent) {
    if (event.seq > this.#afterSeq) this.#follower.onEvent(event);
  }

  onLost() {
    this.#follower.onLost();
  }

  onEnded() {
    if (this.#ended) return;
    this.#ended = true;
    this.#follower.onEnded();
  }
}

/** One debate attempt's subscription, shared by every follower of it in this process. */
type Feed = {
  /** Every event of the attempt, in order from seq 1: what a late follower is replayed. */
  events: StoredEvent[];
  lastSeq: number;
  followers: Set<FeedFollower>;
  subscription: Promise<() => void>;
  /** Steps that read storage, run one at a time; while any is queued, bus events queue behind it. */
  queue: Promise<unknown>;
  queued: number;
  lastCheck: { at: number; current: Promise<boolean> } | null;
};

/** How long after a failed look at storage the same followers are looked at again. */
const LOOK_AGAIN_MS = 1000;

/**
 * The events of debate attempts as this process's streams follow them: one bus subscription per attempt
 * however many follow it (a thousand streams of a debate cost one consumer and one decoding of each event,
 * not a thousand). The feed keeps the attempt's events while anyone follows, so a follower that joins late
 * is replayed those after its `afterSeq` from memory, then gets the live ones. What the bus skipped (a node
 * died between storing and publishing, NATS was away) the feed reads from storage once, for all its
 * followers, before the event that showed the gap; and the followers' periodic looks at storage
 * (`check`) are one per attempt. The last follower to leave ends the subscription.
 */
export function fanOutEvents(
  follow: EventBus['follow'],
  storage: FeedStorage,
  onError: (error: unknown) => void,
) {
  const feeds = new Map<string, Feed>();
  const keyOf = (debateId: string, attempt: number) => `${debateId}:${attempt}`;
  /** Every end of an attempt is heard as it commits (`attemptEnded`): checks need not ask storage. */
  let hearingEnds = false;
  /** Followers who joined while ends were heard and were not looked at yet (`lookAfterJoins`). */
  let joined: { debateId: string; attempt: number; feed: Feed; follower: FeedFollower }[] = [];

  /**
   * A stream reads its debate, then joins the feed: an end that commits between the two is heard with the
   * follower not there to be told, and while ends are heard nothing looks at storage again. So the followers
   * that joined since the last look are looked at once, in one read for all of them (a thousand streams
   * opening together cost a few reads, not a thousand), after they joined: an end after that read is heard.
   */
  const lookAfterJoins = () => {
    const batch = joined;
    joined = [];
    const stillFollowing = batch.filter(({ feed, follower }) => feed.followers.has(follower));
    if (stillFollowing.length === 0) return;
    storage.currentAttempts([...new Set(stillFollowing.map((each) => each.debateId))]).then(
      (current) => {
        for (const { debateId, attempt, feed, follower } of stillFollowing) {
          if (current.get(debateId) !== attempt && feed.followers.has(follower)) follower.onEnded();
        }
      },
      (error: unknown) => {
        // Storage did not answer: the same followers are looked at again a second later, not dropped.
        onError(error);
        if (joined.length === 0) setTimeout(lookAfterJoins, LOOK_AGAIN_MS).unref();
        joined.push(...stillFollowing);
      },
    );
  };

  const tellEnded = (feed: Feed) => {
    for (const follower of feed.followers) {
      try {
        follower.onEnded();
      } catch (error) {
        onError(error);
      }
    }
  };

  const publish = (feed: Feed, event: StoredEvent) => {
    if (event.seq <= feed.lastSeq) return; // redelivered, or already read from storage
    feed.lastSeq = event.seq;
    feed.events.push(event);
    for (const follower of feed.followers) {
      try {
        follower.onEvent(event);
      } catch (error) {
        onError(error); // one follower's failure is not the others'
      }
    }
  };

  /** Runs `step` after the feed's queued ones; a failed step does not stop the next. */
  const enqueue = <T>(feed: Feed, step: () => Promise<T>): Promise<T> => {
    feed.queued += 1;
    const run = feed.queue.then(step).finally(() => {
      feed.queued -= 1;
    });
    feed.queue = run.catch(() => {});
    return run;
  };

  const readStorage = async (debateId: string, attempt: number, feed: Feed) => {
    for (const event of await storage.storedAfter(debateId, attempt, feed.lastSeq)) publish(feed, event);
  };

  const open = (debateId: string, attempt: number): Feed => {
    const key = keyOf(debateId, attempt);
    const existing = feeds.get(key);
    if (existing) return existing;
    const feed: Feed = {
      events: [],
      lastSeq: 0,
      followers: new Set(),
      subscription: Promise.resolve(() => {}),
      queue: Promise.resolve(),
      queued: 0,
      lastCheck: null,
    };
    feed.subscription = follow(debateId, attempt, 0, (event) => {
      // The next event with nothing queued before it goes at once: no promise per event.
      if (feed.queued === 0 && event.seq === feed.lastSeq + 1) return publish(feed, event);
      enqueue(feed, async () => {
        if (event.seq > feed.lastSeq + 1) await readStorage(debateId, attempt, feed);
        publish(feed, event);
      }).catch((error: unknown) => {
        onError(error);
        for (const follower of feed.followers) follower.onLost();
      });
    });
    feeds.set(key, feed);
    feed.subscription.catch(() => {
      if (feeds.get(key) === feed) feeds.delete(key); // the next follower tries again
    });
    return feed;
  };

  return {
    /**
     * `follower` gets the attempt's events after `afterSeq`: those the feed holds at once, then the live
     * ones, until the returned stop.
     */
    follow: async (
      debateId: string,
      attempt: number,
      afterSeq: number,
      follower: FeedFollower,
    ): Promise<() => void> => {
      const feed = open(debateId, attempt);
      const own = new Membership(afterSeq, follower);
      for (const event of feed.events) own.onEvent(event);
      feed.followers.add(own);
      let stop: () => void;
      try {
        stop = await feed.subscription;
      } catch (error) {
        feed.followers.delete(own);
        throw error;
      }
      if (hearingEnds) {
        if (joined.length === 0) setImmediate(lookAfterJoins);
        joined.push({ debateId, attempt, feed, follower: own });
      }
      return () => {
        if (!feed.followers.delete(own) || feed.followers.size > 0) return;
        if (feeds.get(keyOf(debateId, attempt)) === feed) feeds.delete(keyOf(debateId, attempt));
        stop();
      };
    },

    /**
     * Whether a followed attempt is still the debate's (not deleted, not retried), asked at each stream's
     * keep-alive. While ends are heard (`hearingEnds`) the answer is yes without a statement: an ending is
     * told to the followers as it commits. Otherwise it is a look at storage, at most once per `everyMs` per
     * attempt, whoever asks (the streams' keep-alives are spread over the interval, and one look answers them
     * all), which also sends the followers what was stored and not published yet.
     */
    check: (debateId: string, attempt: number, everyMs: number, now = Date.now()): Promise<boolean> => {
      const feed = feeds.get(keyOf(debateId, attempt));
      if (feed && hearingEnds) return Promise.resolve(true);
      if (!feed) return storage.isCurrent(debateId, attempt);
      if (feed.lastCheck && now - feed.lastCheck.at < everyMs) return feed.lastCheck.current;
      const current = enqueue(feed, async () => {
        await readStorage(debateId, attempt, feed);
        return storage.isCurrent(debateId, attempt);
      });
      feed.lastCheck = { at: now, current };
      return current;
    },

    /** The debate's attempts up to `attempt` ended (deleted, or retried as a later one): their followers are told. */
    attemptEnded: (debateId: string, attempt: number) => {
      for (let each = 1; each <= attempt; each += 1) {
        const feed = feeds.get(keyOf(debateId, each));
        if (feed) tellEnded(feed);
      }
    },

    /**
     * Ends are heard from now on (`true`), or may be missed (`false`: the notifications' connection was lost).
     * Hearing them again, the followed attempts are looked at in one read: one may have ended unheard meanwhile.
     */
    hearingEnds: (hearing: boolean) => {
      const resumed = hearing && !hearingEnds;
      hearingEnds = hearing;
      if (!resumed || feeds.size === 0) return;
      const followed = [...feeds].map(([key, feed]) => {
        const [debateId = '', attempt] = key.split(':');
        return { debateId, attempt: Number(attempt), feed };
      });
      storage.currentAttempts([...new Set(followed.map((each) => each.debateId))]).then(
        (current) => {
          for (const { debateId, attempt, feed } of followed) {
            if (current.get(debateId) !== attempt) tellEnded(feed);
          }
        },
        (error: unknown) => {
          onError(error);
          for (const { feed } of followed) for (const follower of feed.followers) follower.onLost();
        },
      );
    },

    /** Debate attempts followed in this process, and their followers: the open streams. */
    following: () => ({
      attempts: feeds.size,
      followers: [...feeds.values()].reduce((sum, feed) => sum + feed.followers.size, 0),
    }),
  };
}
