import type { StopListening } from '../../db/listener.ts';
import type { fanOutEvents } from '../event-fanout.ts';
import type { DebateEventResources } from './event-resources.ts';

/** The database notification channel of migration 0036: `<schema> <debate id> <attempt>` of an attempt that ended. */
const ATTEMPT_ENDS = 'debate_attempt_ends';

type Feeds = ReturnType<typeof fanOutEvents>;

/**
 * Following, with the ends of attempts heard as they commit. Listening is started by the first follower, so
 * that processes that never stream (engine nodes, operator commands) never listen. Until it listens, and
 * whenever its connection is lost, followers' checks look at storage.
 */
export function followHearingEnds(resources: DebateEventResources, feeds: Feeds) {
  let listening: Promise<StopListening | null> | null = null;
  return {
    follow: (...args: Parameters<Feeds['follow']>) => {
      listening ??= listenForEnds(resources, feeds);
      return feeds.follow(...args);
    },
    /** Stops hearing of ends (the process is closing). */
    close: async () => {
      const stop = await listening;
      feeds.hearingEnds(false);
      await stop?.();
    },
  };
}

const listenForEnds = ({ db, onError }: DebateEventResources, feeds: Feeds) =>
  db
    .listen(ATTEMPT_ENDS, {
      onNotification: (payload) => {
        const [schema, debateId, attempt] = payload.split(' ');
        if (schema === db.schema && debateId) feeds.attemptEnded(debateId, Number(attempt));
      },
      onLost: () => feeds.hearingEnds(false),
      onListening: () => feeds.hearingEnds(true),
    })
    .catch((error: unknown) => {
      onError(error);
      return null; // never listening: checks look at storage, as they did before
    });
