import { join } from 'node:path';
import type { BareEvent, BarePublished } from './bare-sse-message.ts';
import { request } from './debates-servers.ts';
import { spawnServer } from './spawn-server.ts';
import { nodeCommandFor, type Transport } from './transports.ts';

/** The runner's side of bench/servers/bare-sse.ts: the bare SSE servers the edge suite compares the API with. */
export type BareSse = {
  kind: Transport;
  /** GET `${baseUrl}/stream` opens a stream. */
  baseUrl: string;
  pid: number;
  /** Runs `schedule` on every stream held, then ends them; resolves with the publish times. */
  publish: (schedule: BareEvent[], timeoutMs: number) => Promise<BarePublished>;
  /** The server's CPU seconds so far (process.cpuUsage). */
  cpuSeconds: () => Promise<number>;
  stop: () => Promise<void>;
};

export async function startBareSse(kind: Transport): Promise<BareSse> {
  const server = await spawnServer<{ port: number }>(
    join(import.meta.dirname, '..', 'servers', 'bare-sse.ts'),
    {
      env: { BENCH_BARE_SSE: kind },
      node: nodeCommandFor(kind),
    },
  );
  const child = server.child;
  return {
    kind,
    baseUrl: `http://127.0.0.1:${server.info.port}`,
    pid: child.pid ?? 0,
    publish: (schedule, timeoutMs) =>
      request<BarePublished>(child, { type: 'publish', schedule }, 'published', timeoutMs),
    cpuSeconds: async () =>
      (await request<{ cpuSeconds: number }>(child, { type: 'stats' }, 'stats', 30_000)).cpuSeconds,
    stop: () => server.stop(),
  };
}
