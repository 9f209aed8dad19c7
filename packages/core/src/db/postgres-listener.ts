import type pg from 'pg';
import type { ChangeHandlers, Listen, StopListening } from './listener.ts';
import { type EndSession, keepSession } from './postgres-session.ts';

/**
 * LISTEN on PostgreSQL, every channel of the process on one session of its own: one connection and one
 * liveness probe however many caches and feeds listen (the key cache, the streams' feeds). Each handler hears
 * of every loss and of each time listening starts again; a channel first asked for while the session is up is
 * listened to on it before its handlers are told.
 */
export function postgresListener(url: string): Listen {
  const channels = new Map<string, Set<ChangeHandlers>>();
  let session: Promise<EndSession> | null = null;
  /** The session's connection once it is set up, and the channels it listens on. */
  let listening: pg.Client | null = null;
  let listened = new Set<string>();

  const listenOn = async (client: pg.Client, channel: string) => {
    if (listened.has(channel)) return;
    await client.query(`listen "${channel}"`);
    listened.add(channel);
  };
  /** Every channel asked for, including those asked for while the others were being listened to. */
  const listenOnAll = async (client: pg.Client) => {
    for (let missing = [...channels.keys()]; missing.length > 0; ) {
      for (const channel of missing) await listenOn(client, channel);
      missing = [...channels.keys()].filter((channel) => !listened.has(channel));
    }
  };
  const everyHandler = () => [...channels.values()].flatMap((handlers) => [...handlers]);

  const start = () =>
    keepSession(url, {
      setup: async (client) => {
        listened = new Set();
        await listenOnAll(client);
      },
      onNotification: (message) => {
        if (message.payload === undefined) return;
        for (const handlers of channels.get(message.channel) ?? []) handlers.onNotification(message.payload);
      },
      onLost: () => {
        listening = null;
        for (const handlers of everyHandler()) handlers.onLost();
      },
      onReady: (client) => {
        listening = client;
        // A channel asked for between the setup and now is listened to first. A failed LISTEN fails the
        // connection: the session opens another and tells everyone again.
        listenOnAll(client).then(
          () => {
            if (listening === client) for (const handlers of everyHandler()) handlers.onListening();
          },
          () => {},
        );
      },
    });

  return async (channel, handlers): Promise<StopListening> => {
    channels.set(channel, (channels.get(channel) ?? new Set()).add(handlers));
    if (session === null) {
      // Its setup listens on the channel just added; onReady tells the handlers.
      session = start();
      await session;
    } else if (listening !== null) {
      const client = listening;
      try {
        await listenOn(client, channel);
        if (listening === client) handlers.onListening();
      } catch {
        // The connection failed with it: the session opens another, listening on every channel.
      }
    }
    return async () => {
      const registered = channels.get(channel);
      registered?.delete(handlers);
      if (registered?.size === 0) channels.delete(channel);
      if (channels.size > 0 || session === null) return;
      const end = session;
      session = null;
      listening = null;
      await (await end)();
    };
  };
}
