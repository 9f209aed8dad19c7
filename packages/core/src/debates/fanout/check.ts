import { enqueue, readStorage } from './feed.ts';
import { type FanOut, keyOf } from './feeds.ts';

/**
 * Whether a followed attempt is still the debate's (not deleted, not retried), asked at each stream's
 * keep-alive. While ends are heard (`hearingEnds`) the answer is yes without a statement: an ending is
 * told to the followers as it commits. Otherwise it is a look at storage, at most once per `everyMs` per
 * attempt, whoever asks (the streams' keep-alives are spread over the interval, and one look answers them
 * all), which also sends the followers what was stored and not published yet.
 */
export const checkFeed =
  (fanOut: FanOut) =>
  (debateId: string, attempt: number, everyMs: number, now = Date.now()): Promise<boolean> => {
    const feed = fanOut.feeds.get(keyOf(debateId, attempt));
    if (feed && fanOut.hearingEnds) return Promise.resolve(true);
    if (!feed) return fanOut.storage.isCurrent(debateId, attempt);
    if (feed.lastCheck && now - feed.lastCheck.at < everyMs) return feed.lastCheck.current;
    const current = enqueue(feed, async () => {
      await readStorage(fanOut, debateId, attempt, feed);
      return fanOut.storage.isCurrent(debateId, attempt);
    });
    feed.lastCheck = { at: now, current };
    return current;
  };
