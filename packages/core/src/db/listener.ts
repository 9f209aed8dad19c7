/**
 * PostgreSQL's LISTEN/NOTIFY, for caches that must hear of a change committed by any process on the
 * database. A notification is sent when its transaction commits, by whatever wrote the row (a trigger
 * sends it), so no writer can forget to tell the caches.
 *
 * A listener that loses its connection cannot know what it missed: it says so (`onLost`), and the cache
 * must stop trusting itself until `onListening` says notifications flow again.
 */
export type ChangeHandlers = {
  onNotification: (payload: string) => void;
  /** Notifications may have been missed from now until the next onListening. */
  onLost: () => void;
  /** Listening (again): every change committed from now on is told. */
  onListening: () => void;
};

/** Stops listening; resolves once the connection is closed. */
export type StopListening = () => Promise<void>;

export type Listen = (channel: string, handlers: ChangeHandlers) => Promise<StopListening>;
