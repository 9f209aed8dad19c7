import type { EventBus } from '../bus/ports.ts';
import { attemptEnded } from './fanout/attempt-ended.ts';
import { checkFeed } from './fanout/check.ts';
import type { FanOut, FeedStorage } from './fanout/feeds.ts';
import { followFeed } from './fanout/follow.ts';
import { following } from './fanout/following.ts';
import { hearingEnds } from './fanout/hearing-ends.ts';

export type { FeedFollower, FeedStorage } from './fanout/feeds.ts';

/**
 * The events of debate attempts as this process's streams follow them: one bus subscription per attempt
 * however many follow it (a thousand streams of a debate cost one consumer and one decoding of each event,
 * not a thousand). The feed keeps the attempt's events while anyone follows, so a follower that joins late
 * is replayed those after its `afterSeq` from memory, then gets the live ones. What the bus skipped (a node
 * died between storing and publishing, NATS was away) the feed reads from storage once, for all its
 * followers, before the event that showed the gap; and the followers' periodic looks at storage
 * (`check`) are one per attempt. The last follower to leave ends the subscription.
 *
 * Its steps live in fanout/, module functions over the one `FanOut` made here (fanout/feeds.ts): the feed
 * of an attempt and what reaches its followers (feed.ts), following, checks and the ends of attempts.
 */
export function fanOutEvents(
  follow: EventBus['follow'],
  storage: FeedStorage,
  onError: (error: unknown) => void,
) {
  const fanOut: FanOut = { follow, storage, onError, feeds: new Map(), hearingEnds: false, joined: [] };
  return {
    follow: followFeed(fanOut),
    check: checkFeed(fanOut),
    attemptEnded: attemptEnded(fanOut),
    hearingEnds: hearingEnds(fanOut),
    following: following(fanOut),
  };
}
