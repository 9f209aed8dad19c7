import { keepSession } from './postgres-session.ts';
import { type EndPresence, PRESENCE_LOCK_CLASS, type PresenceHandlers } from './presence.ts';

/**
 * Holds `name`'s presence lock on a session of its own. A lock still held by an earlier session of the same
 * name (one PostgreSQL has not yet seen die) is not waited for: the session is dropped and tried again.
 */
export const holdPresenceOnPostgres = (
  url: string,
  name: string,
  handlers: PresenceHandlers,
): Promise<EndPresence> =>
  keepSession(url, {
    setup: async (client) => {
      const { rows } = await client.query<{ held: boolean }>(
        'select pg_try_advisory_lock($1, hashtext($2)) as held',
        [PRESENCE_LOCK_CLASS, name],
      );
      if (!rows[0]?.held) throw new Error(`the presence of ${name} is held by another session`);
    },
    onLost: handlers.onLost,
    onReady: handlers.onHeld,
  });
