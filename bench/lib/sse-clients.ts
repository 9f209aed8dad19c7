import { join } from 'node:path';
import { request } from './debates-servers.ts';
import type { ClientOutcome } from './debates-sse.ts';
import { spawnServer } from './spawn-server.ts';

/** The runner's side of bench/servers/sse-clients.ts: SSE client fleets in a process of their own. */
export type SseClients = {
  pid: number;
  /**
   * Opens `count` streams on `url` (at most `concurrency` handshakes at once) and resolves once each has
   * its response headers or failed. One call at a time per process.
   */
  open: (
    url: string,
    headers: Record<string, string>,
    count: number,
    options?: { concurrency?: number; timeoutMs?: number },
  ) => Promise<Opened>;
  /** Streams still open (not ended by the server, no error), and the process's RSS. */
  held: () => Promise<{ open: number; rssBytes: number }>;
  /** Every stream's outcome once they ended (or after `timeoutMs`); the fleets are closed. */
  finished: (timeoutMs: number) => Promise<ClientOutcome[]>;
  stop: () => Promise<void>;
};

export type Opened = { connected: number; connectMs: number; failures: string[]; failed: number };

export async function startSseClients(): Promise<SseClients> {
  const server = await spawnServer<{ pid: number }>(
    join(import.meta.dirname, '..', 'servers', 'sse-clients.ts'),
  );
  const child = server.child;
  return {
    pid: server.info.pid,
    open: (url, headers, count, options = {}) =>
      request<Opened>(
        child,
        { type: 'open', url, headers, count, concurrency: options.concurrency ?? 100 },
        'opened',
        options.timeoutMs ?? 180_000,
      ),
    held: () => request<{ open: number; rssBytes: number }>(child, { type: 'held' }, 'held', 30_000),
    finished: async (timeoutMs) =>
      (
        await request<{ outcomes: ClientOutcome[] }>(
          child,
          { type: 'finish', timeoutMs },
          'finished',
          timeoutMs + 30_000,
        )
      ).outcomes,
    stop: () => server.stop(),
  };
}
