import { tellEnded } from './feed.ts';
import { type FanOut, keyOf } from './feeds.ts';

/** The debate's attempts up to `attempt` ended (deleted, or retried as a later one): their followers are told. */
export const attemptEnded = (fanOut: FanOut) => (debateId: string, attempt: number) => {
  for (let each = 1; each <= attempt; each += 1) {
    const feed = fanOut.feeds.get(keyOf(debateId, each));
    if (feed) tellEnded(fanOut, feed);
  }
};
