/**
 * A process's presence on the database: a session-level advisory lock, in this class, keyed by the hash of
 * the process's name (`hashtext(name)`). PostgreSQL ends a session the moment its process dies (the kernel
 * closes the socket), and the lock with it, so another process reads "gone" at once instead of waiting for
 * a lease to run out. A process that is alive but cut off keeps it until PostgreSQL notices the link is
 * dead (TCP keep-alive); leases cover that case.
 *
 * Read it with: exists (select 1 from pg_locks where locktype = 'advisory' and granted and objsubid = 2
 * and database = (select oid from pg_database where datname = current_database())
 * and classid = PRESENCE_LOCK_CLASS and objid = hashtext(name)::oid).
 */
export const PRESENCE_LOCK_CLASS = 0x56524450;

export type PresenceHandlers = {
  /** The lock is held (again). */
  onHeld: () => void;
  /** The session ended: others read this process as gone until the next onHeld. */
  onLost: () => void;
};

/** Gives the presence up; resolves once its session is closed. */
export type EndPresence = () => Promise<void>;

export type HoldPresence = (name: string, handlers: PresenceHandlers) => Promise<EndPresence>;
