import type { StoredEvent } from '../stored-event.ts';
import { type FanOut, type Feed, keyOf } from './feeds.ts';

/** The attempt's feed: the one open, else a new one subscribed on the bus. */
export function openFeed(fanOut: FanOut, debateId: string, attempt: number): Feed {
  const key = keyOf(debateId, attempt);
  const existing = fanOut.feeds.get(key);
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
  feed.subscription = fanOut.follow(
    debateId,
    attempt,
    0,
    (event) => {
      // The next event with nothing queued before it goes at once: no promise per event.
      if (feed.queued === 0 && event.seq === feed.lastSeq + 1) return publish(fanOut, feed, event);
      publishInTurn(fanOut, feed, debateId, attempt, event);
    },
    (error) => {
      // The bus gave up on the attempt: its followers end (a stream's client reconnects after its last event)
      // and the next follower subscribes anew.
      fanOut.onError(error);
      if (fanOut.feeds.get(key) === feed) fanOut.feeds.delete(key);
      tellLost(feed);
    },
  );
  fanOut.feeds.set(key, feed);
  feed.subscription.catch(() => {
    if (fanOut.feeds.get(key) === feed) fanOut.feeds.delete(key); // the next follower tries again
  });
  return feed;
}

/** An event behind queued steps, or after a gap: published after them, what the bus skipped read first. */
function publishInTurn(fanOut: FanOut, feed: Feed, debateId: string, attempt: number, event: StoredEvent) {
  enqueue(feed, async () => {
    if (event.seq > feed.lastSeq + 1) await readStorage(fanOut, debateId, attempt, feed);
    publish(fanOut, feed, event);
  }).catch((error: unknown) => {
    fanOut.onError(error);
    tellLost(feed);
  });
}

/** The event to every follower, unless the feed has it already. */
function publish(fanOut: FanOut, feed: Feed, event: StoredEvent) {
  if (event.seq <= feed.lastSeq) return; // redelivered, or already read from storage
  feed.lastSeq = event.seq;
  feed.events.push(event);
  for (const follower of feed.followers) {
    try {
      follower.onEvent(event);
    } catch (error) {
      fanOut.onError(error); // one follower's failure is not the others'
    }
  }
}

/** Runs `step` after the feed's queued ones; a failed step does not stop the next. */
export function enqueue<T>(feed: Feed, step: () => Promise<T>): Promise<T> {
  feed.queued += 1;
  const run = feed.queue.then(step).finally(() => {
    feed.queued -= 1;
  });
  feed.queue = run.catch(() => {});
  return run;
}

/** Publishes what storage has after the feed's last event. */
export async function readStorage(fanOut: FanOut, debateId: string, attempt: number, feed: Feed) {
  for (const event of await fanOut.storage.storedAfter(debateId, attempt, feed.lastSeq)) {
    publish(fanOut, feed, event);
  }
}

/** Tells every follower the attempt ended; one follower's failure is not the others'. */
export function tellEnded(fanOut: FanOut, feed: Feed) {
  for (const follower of feed.followers) {
    try {
      follower.onEnded();
    } catch (error) {
      fanOut.onError(error);
    }
  }
}

/** Tells every follower it may have missed events. */
export function tellLost(feed: Feed) {
  for (const follower of feed.followers) follower.onLost();
}
