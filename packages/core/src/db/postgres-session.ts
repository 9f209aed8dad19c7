import pg from 'pg';

/**
 * How often a kept session is asked to answer, and how long it may take: a link that died silently (a
 * partition, no reset) is found within their sum, so what the session stands for is trusted at most that long.
 */
const PROBE_EVERY_MS = 500;
const PROBE_TIMEOUT_MS = 750;
const RETRY_MIN_MS = 250;
const RETRY_MAX_MS = 5000;

export type KeptSession = {
  /** Makes the session what it is for (LISTEN, a lock); a failure drops the connection and tries again. */
  setup: (client: pg.Client) => Promise<void>;
  onNotification?: (message: pg.Notification) => void;
  /** What the session stood for is gone until the next `onReady`. */
  onLost: () => void;
  /** Set up (again), on `client`: valid until the next `onLost`. */
  onReady: (client: pg.Client) => void;
};

/** Ends the session; resolves once its connection is closed. */
export type EndSession = () => Promise<void>;

/**
 * A PostgreSQL session of its own, kept open (a pooled connection would be handed back, and lose its LISTEN
 * or its session locks). A connection that fails, ends, or stops answering its probe is dropped and opened
 * again, with growing pauses; the caller hears of each loss and of each time the session is set up again.
 */
export async function keepSession(url: string, session: KeptSession): Promise<EndSession> {
  let stopped = false;
  let client: pg.Client | null = null;
  let probe: NodeJS.Timeout | undefined;
  let retry: NodeJS.Timeout | undefined;
  let pause = RETRY_MIN_MS;
  let ready = false;

  /** Closes a client nobody uses any more; it may still report its socket's end. */
  const discard = (old: pg.Client) => {
    old.removeAllListeners();
    old.on('error', () => {});
    old.end().catch(() => {});
  };

  const lose = (failed: pg.Client) => {
    if (client !== failed) return;
    client = null;
    clearInterval(probe);
    discard(failed);
    if (ready) session.onLost();
    ready = false;
    if (stopped) return;
    retry = setTimeout(connect, pause);
    retry.unref(); // a kept session never keeps a process alive by itself
    pause = Math.min(pause * 2, RETRY_MAX_MS);
  };

  async function connect() {
    const next = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000, keepAlive: true });
    client = next;
    next.on('error', () => lose(next));
    next.on('end', () => lose(next));
    if (session.onNotification) next.on('notification', session.onNotification);
    try {
      await next.connect();
      await session.setup(next);
    } catch {
      if (client === next) lose(next);
      else discard(next);
      return;
    }
    // Stopped (or given up for a newer one) while connecting.
    if (client !== next) {
      discard(next);
      return;
    }
    pause = RETRY_MIN_MS;
    ready = true;
    session.onReady(next);
    probe = setInterval(() => probeOnce(next, () => lose(next)), PROBE_EVERY_MS);
    probe.unref();
  }

  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    clearInterval(probe);
    const open = client;
    client = null;
    if (!open) return;
    open.removeAllListeners();
    open.on('error', () => {});
    await open.end().catch(() => {});
  };
}

/** Asks the connection `select 1`; `lose` when it fails or does not answer within PROBE_TIMEOUT_MS. */
function probeOnce(client: pg.Client, lose: () => void) {
  let answered = false;
  // The verdict waits one turn past the timeout: after the event loop was held (a long collection of a big
  // heap), expired timers run before the socket is read, and an answer already there would be taken for
  // none. setImmediate runs after that read.
  const timer = setTimeout(
    () =>
      setImmediate(() => {
        if (!answered) lose();
      }),
    PROBE_TIMEOUT_MS,
  );
  client.query('select 1').then(
    () => {
      answered = true;
      clearTimeout(timer);
    },
    () => {
      clearTimeout(timer);
      lose();
    },
  );
}
