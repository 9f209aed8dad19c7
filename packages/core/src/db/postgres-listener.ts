import type { ChangeHandlers, StopListening } from './listener.ts';
import { keepSession } from './postgres-session.ts';

/** LISTEN on a session of its own: its handlers hear of each loss and of each time listening starts again. */
export const listenOnPostgres = (
  url: string,
  channel: string,
  handlers: ChangeHandlers,
): Promise<StopListening> =>
  keepSession(url, {
    setup: async (client) => {
      await client.query(`listen "${channel}"`);
    },
    onNotification: (message) => {
      if (message.channel === channel && message.payload !== undefined)
        handlers.onNotification(message.payload);
    },
    onLost: handlers.onLost,
    onReady: handlers.onListening,
  });
