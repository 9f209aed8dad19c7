import pg from 'pg';
import type { ChangeHandlers, StopListening } from './listener.ts';

/**
 * How often the listening connection is asked to answer, and how long it may take: a link that died
 * silently (a partition, no reset) is found within their sum, so a cache trusts a dead link for at most that.
 */
const PROBE_EVERY_MS = 500;
const PROBE_TIMEOUT_MS = 750;
const RETRY_MIN_MS = 250;
const RETRY_MAX_MS = 5000;

/**
 * LISTEN on a connection of its own (a pooled one would be handed back and lose its LISTEN). A connection
 * that fails, ends, or stops answering its probe is dropped and opened again, with growing pauses; the
 * handlers hear of each loss and of each time listening starts again.
 */
export async function listenOnPostgres(
  url: string,
  channel: string,
  handlers: ChangeHandlers,
): Promise<StopListening> {
  let stopped = false;
  let client: pg.Client | null = null;
  let probe: NodeJS.Timeout | undefined;
  let retry: NodeJS.Timeout | undefined;
  let pause = RETRY_MIN_MS;
  let listening = false;

  /** Closes a client nobody listens through any more; it may still report its socket's end. */
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
    if (listening) handlers.onLost();
    listening = false;
    if (stopped) return;
    retry = setTimeout(connect, pause);
    retry.unref(); // listening never keeps a process alive by itself
    pause = Math.min(pause * 2, RETRY_MAX_MS);
  };

  async function connect() {
    const next = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000, keepAlive: true });
    client = next;
    next.on('error', () => lose(next));
    next.on('end', () => lose(next));
    next.on('notification', (message) => {
      if (message.channel === channel && message.payload !== undefined)
        handlers.onNotification(message.payload);
    });
    try {
      await next.connect();
      await next.query(`listen "${channel}"`);
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
    listening = true;
    handlers.onListening();
    probe = setInterval(() => {
      const timer = setTimeout(() => lose(next), PROBE_TIMEOUT_MS);
      next.query('select 1').then(
        () => clearTimeout(timer),
        () => {
          clearTimeout(timer);
          lose(next);
        },
      );
    }, PROBE_EVERY_MS);
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
