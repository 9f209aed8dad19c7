/**
 * What an idle SSE stream keeps on the API's heap, by kind of object: starts the API in distributed mode
 * (bench/servers/debates-api-server.ts, on the server STREAMS names), takes a heap snapshot, opens STREAMS
 * streams on a few pending debates, takes another, and prints the difference per stream by constructor
 * (count and bytes), largest first. Needs the bench's PostgreSQL and NATS (DATABASE_URL, NATS_URL).
 *
 *   npm exec -- node bench/heap-breakdown.ts [--streams uws|node] [--count 2000] [--top 40]
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { newDeployment, startDebatesApi } from './lib/debates-servers.ts';
import { openSseFleet } from './lib/debates-sse.ts';
import { createPending } from './lib/idle-streams.ts';
import { BENCH_DATABASE_URL, BENCH_NATS_URL } from './lib/services.ts';

const { values: args } = parseArgs({
  options: {
    streams: { type: 'string', default: 'uws' },
    count: { type: 'string', default: '2000' },
    top: { type: 'string', default: '40' },
  },
});
const transport = args.streams === 'node' ? 'node' : 'uws';
const count = Number(args.count);
const DEBATES = 4;

/** A V8 heap snapshot's nodes summed by constructor (or type, for strings, arrays, closures …). */
type Census = Map<string, { count: number; bytes: number }>;

async function census(path: string): Promise<Census> {
  const snapshot = JSON.parse(await readFile(path, 'utf8')) as {
    snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
    nodes: number[];
    strings: string[];
  };
  const fields = snapshot.snapshot.meta.node_fields;
  const types = snapshot.snapshot.meta.node_types[0];
  const width = fields.length;
  const at = {
    type: fields.indexOf('type'),
    name: fields.indexOf('name'),
    size: fields.indexOf('self_size'),
  };
  const byKind: Census = new Map();
  for (let i = 0; i < snapshot.nodes.length; i += width) {
    const type = types[snapshot.nodes[i + at.type] as number] ?? '?';
    const name = snapshot.strings[snapshot.nodes[i + at.name] as number] ?? '?';
    // Objects by their constructor, closures by their function's name; everything else by its type (one row
    // for all strings, all arrays …).
    const kind =
      type === 'object' ? name : type === 'closure' ? `(closure) ${name || 'anonymous'}` : `(${type})`;
    const row = byKind.get(kind) ?? { count: 0, bytes: 0 };
    row.count += 1;
    row.bytes += snapshot.nodes[i + at.size] as number;
    byKind.set(kind, row);
  }
  return byKind;
}

const dir = await mkdtemp(join(tmpdir(), 'verdict-heap-'));
const d = newDeployment(BENCH_DATABASE_URL, BENCH_NATS_URL);
const api = await startDebatesApi(d, { streams: transport });
try {
  const auth = { authorization: `Bearer ${api.keys[0]}` };
  const paths = await Promise.all(Array.from({ length: DEBATES }, (_, i) => createPending(api, i)));
  await sleep(1000);
  await api.heapSnapshot(join(dir, 'before.heapsnapshot'));
  const fleets = [];
  for (const path of paths)
    fleets.push(await openSseFleet(`${api.baseUrl}${path}`, auth, Math.ceil(count / DEBATES)));
  const open = fleets.reduce((sum, fleet) => sum + fleet.connected, 0);
  await sleep(2000);
  await api.heapSnapshot(join(dir, 'after.heapsnapshot'));
  for (const fleet of fleets) fleet.close();
  const [before, after] = await Promise.all([
    census(join(dir, 'before.heapsnapshot')),
    census(join(dir, 'after.heapsnapshot')),
  ]);
  const rows = [...after].map(([kind, a]) => {
    const b = before.get(kind) ?? { count: 0, bytes: 0 };
    return { kind, count: (a.count - b.count) / open, bytes: (a.bytes - b.bytes) / open };
  });
  rows.sort((x, y) => y.bytes - x.bytes);
  const total = rows.reduce((sum, row) => sum + row.bytes, 0);
  console.log(`${open} idle streams on ${transport}: ${(total / 1024).toFixed(2)} KiB of heap objects each`);
  console.log('  bytes/stream  objects/stream  kind');
  for (const row of rows.slice(0, Number(args.top))) {
    console.log(`  ${row.bytes.toFixed(0).padStart(12)}  ${row.count.toFixed(2).padStart(14)}  ${row.kind}`);
  }
} finally {
  await api.stop();
  await rm(dir, { recursive: true, force: true });
}
