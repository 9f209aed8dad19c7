import type { FanOut } from './feeds.ts';

/** Debate attempts followed in this process, and their followers: the open streams. */
export const following = (fanOut: FanOut) => () => ({
  attempts: fanOut.feeds.size,
  followers: [...fanOut.feeds.values()].reduce((sum, feed) => sum + feed.followers.size, 0),
});
