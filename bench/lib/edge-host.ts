import { setTimeout as sleep } from 'node:timers/promises';
import {
  type ApiStats,
  type DebatesApi,
  newDeployment,
  startDebatesApi,
  stopOrDrop,
} from './debates-servers.ts';
import { createPending, openFilesLimit } from './idle-streams.ts';
import { type Opened, type SseClients, startSseClients } from './sse-clients.ts';

/**
 * Many idle SSE streams across the host (bench/suites/edge.ts): `apis` API processes on uWebSockets.js,
 * each in distributed mode on its own schema and NATS prefix with DEBATES pending debates (no engine: the
 * streams carry only keep-alives), and one client process per API holding that API's share of the streams.
 * Opened all at once (OPEN_CONCURRENCY handshakes at a time per client process), then held for `holdS`
 * seconds.
 */

const DEBATES = 10;
/**
 * Handshakes in flight per client process. Each open reads the key, the debate and its events: with 100 per
 * process, five processes' opens waited more than the database pool's 5 s for a connection on 2 busy cores,
 * and a few were refused with 503 (Retry-After 2) — a connection storm, not what this part measures.
 */
const OPEN_CONCURRENCY = 25;
/** Descriptors a process holds besides its streams: its database pool, NATS, IPC, node's own. */
const OTHER_FILES = 200;

export type HostIdle = {
  apis: number;
  openConcurrency: number;
  requested: number;
  opened: Opened[];
  openMs: number;
  /** Streams still open at the clients after the hold, per client process. */
  held: number[];
  holdS: number;
  /** Each API's stats (after gc) before the streams opened and after the hold. */
  before: ApiStats[];
  after: ApiStats[];
  clientRssBytes: number[];
  filesLimit: number | null;
};

export async function hostIdle(options: {
  apis: number;
  streams: number;
  holdS: number;
  databaseUrl: string;
  natsUrl: string;
  log: (message: string) => void;
}): Promise<HostIdle> {
  const { apis: count, streams, holdS, log } = options;
  const perProcess = Math.ceil(streams / count);
  const perDebate = Math.ceil(perProcess / DEBATES);
  const filesLimit = openFilesLimit();
  if (filesLimit !== null && perDebate * DEBATES + OTHER_FILES > filesLimit) {
    throw new Error(
      `${perDebate * DEBATES} streams per process exceed the open-file limit of ${filesLimit} (ulimit -n, which the ` +
        'API and client processes inherit): raise it, or spread the streams over more processes',
    );
  }
  const deployments = Array.from({ length: count }, () =>
    newDeployment(options.databaseUrl, options.natsUrl),
  );
  const apis: DebatesApi[] = [];
  const clients: SseClients[] = [];
  try {
    // One at a time: each runs its migrations on start.
    for (const d of deployments) apis.push(await startDebatesApi(d, { streams: 'uws' }));
    for (let i = 0; i < count; i++) clients.push(await startSseClients());
    const paths = await Promise.all(
      apis.map((api) => Promise.all(Array.from({ length: DEBATES }, (_, i) => createPending(api, i)))),
    );
    const before = await Promise.all(apis.map((api) => api.stats()));
    log(`host: ${count} APIs on uWebSockets.js ready; opening ${perDebate * DEBATES * count} streams`);
    const started = Date.now();
    const opened = await Promise.all(
      apis.map(async (api, i) => {
        const auth = { authorization: `Bearer ${api.keys[0]}` };
        const total: Opened = { connected: 0, connectMs: 0, failures: [], failed: 0 };
        for (const path of paths[i] ?? []) {
          const o = await (clients[i] as SseClients).open(`${api.baseUrl}${path}`, auth, perDebate, {
            concurrency: OPEN_CONCURRENCY,
          });
          total.connected += o.connected;
          total.failed += o.failed;
          total.failures.push(...o.failures.slice(0, 2));
        }
        total.connectMs = Date.now() - started;
        return total;
      }),
    );
    const openMs = Date.now() - started;
    log(
      `host: ${opened.reduce((n, o) => n + o.connected, 0)} streams open in ${openMs} ms` +
        `${
          opened.some((o) => o.failed)
            ? `; failures: ${opened
                .flatMap((o) => o.failures)
                .slice(0, 3)
                .join(' | ')}`
            : ''
        }`,
    );
    await sleep(holdS * 1000);
    const held = await Promise.all(clients.map((c) => c.held()));
    const after = await Promise.all(apis.map((api) => api.stats()));
    return {
      apis: count,
      openConcurrency: OPEN_CONCURRENCY,
      requested: perDebate * DEBATES * count,
      opened,
      openMs,
      held: held.map((h) => h.open),
      holdS,
      before,
      after,
      clientRssBytes: held.map((h) => h.rssBytes),
      filesLimit,
    };
  } finally {
    await Promise.all(clients.map((c) => c.stop().catch(() => {})));
    await Promise.all(deployments.map((d, i) => stopOrDrop(apis[i], d, 'API')));
  }
}
