import { openFeed } from './feed.ts';
import { type FanOut, type FeedFollower, keyOf } from './feeds.ts';
import { lookAfterJoins } from './look-after-joins.ts';
import { Membership } from './membership.ts';

/**
 * `follower` gets the attempt's events after `afterSeq`: those the feed holds at once, then the live
 * ones, until the returned stop.
 */
export const followFeed =
  (fanOut: FanOut) =>
  async (
    debateId: string,
    attempt: number,
    afterSeq: number,
    follower: FeedFollower,
  ): Promise<() => void> => {
    const feed = openFeed(fanOut, debateId, attempt);
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
    if (fanOut.hearingEnds) {
      if (fanOut.joined.length === 0) setImmediate(lookAfterJoins, fanOut);
      fanOut.joined.push({ debateId, attempt, feed, follower: own });
    }
    return () => {
      if (!feed.followers.delete(own) || feed.followers.size > 0) return;
      if (fanOut.feeds.get(keyOf(debateId, attempt)) === feed) fanOut.feeds.delete(keyOf(debateId, attempt));
      stop();
    };
  };
