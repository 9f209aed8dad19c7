import { tellEnded, tellLost } from './feed.ts';
import type { FanOut } from './feeds.ts';

/**
 * Ends are heard from now on (`true`), or may be missed (`false`: the notifications' connection was lost).
 * Hearing them again, the followed attempts are looked at in one read: one may have ended unheard meanwhile.
 */
export const hearingEnds = (fanOut: FanOut) => (hearing: boolean) => {
  const resumed = hearing && !fanOut.hearingEnds;
  fanOut.hearingEnds = hearing;
  if (!resumed || fanOut.feeds.size === 0) return;
  const followed = [...fanOut.feeds].map(([key, feed]) => {
    const [debateId = '', attempt] = key.split(':');
    return { debateId, attempt: Number(attempt), feed };
  });
  fanOut.storage.currentAttempts([...new Set(followed.map((each) => each.debateId))]).then(
    (current) => {
      for (const { debateId, attempt, feed } of followed) {
        if (current.get(debateId) !== attempt) tellEnded(fanOut, feed);
      }
    },
    (error: unknown) => {
      fanOut.onError(error);
      for (const { feed } of followed) tellLost(feed);
    },
  );
};
