import type { FanOut } from './feeds.ts';

/** How long after a failed look at storage the same followers are looked at again. */
const LOOK_AGAIN_MS = 1000;

/**
 * A stream reads its debate, then joins the feed: an end that commits between the two is heard with the
 * follower not there to be told, and while ends are heard nothing looks at storage again. So the followers
 * that joined since the last look are looked at once, in one read for all of them (a thousand streams
 * opening together cost a few reads, not a thousand), after they joined: an end after that read is heard.
 */
export function lookAfterJoins(fanOut: FanOut) {
  const batch = fanOut.joined;
  fanOut.joined = [];
  const stillFollowing = batch.filter(({ feed, follower }) => feed.followers.has(follower));
  if (stillFollowing.length === 0) return;
  fanOut.storage.currentAttempts([...new Set(stillFollowing.map((each) => each.debateId))]).then(
    (current) => {
      for (const { debateId, attempt, feed, follower } of stillFollowing) {
        if (current.get(debateId) !== attempt && feed.followers.has(follower)) follower.onEnded();
      }
    },
    (error: unknown) => {
      // Storage did not answer: the same followers are looked at again a second later, not dropped.
      fanOut.onError(error);
      if (fanOut.joined.length === 0) setTimeout(lookAfterJoins, LOOK_AGAIN_MS, fanOut).unref();
      fanOut.joined.push(...stillFollowing);
    },
  );
}
