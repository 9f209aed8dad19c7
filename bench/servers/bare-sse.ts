/**
 * The baselines of bench/suites/edge.ts: a bare SSE server on Node's http (BENCH_BARE_SSE=node) or on
 * uWebSockets.js (BENCH_BARE_SSE=uws; start it with nodeCommandForUws()). GET /stream answers 200 with the
 * API's SSE headers and holds the response; nothing else runs. Prints {"port"} when ready. Over IPC:
 *
 *   {type:'publish', schedule} → publishes each scheduled event at its offset from the message's arrival,
 *       to every held stream, then ends the streams, and answers {type:'published', published, streams}:
 *       each event's publish time (epoch ms, the time it was due, which its data also carries) and the
 *       streams it went to
 *   {type:'stats'} → {type:'stats', cpuSeconds}
 *
 * The fan-out runs from the IPC message and timers, never inside a request handler (uWebSockets.js corks
 * one socket at a time; PLATFORM.md). Each event is encoded once, as a Buffer, and written to every stream
 * as it is, corked on uWebSockets.js, as the API does (uws-sse-writer.ts).
 */
import { createServer, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { HttpResponse } from '@btc-vision/uwebsockets.js';
import { type BareEvent, type BarePublished, bareMessage } from '../lib/bare-sse-message.ts';
import { onStopRequest } from '../lib/spawn-server.ts';

/** apps/api/src/http/sse-wire.ts's SSE_HEADERS. */
const SSE_HEADERS = {
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no',
};

type Streams = {
  count: () => number;
  write: (message: Buffer) => void;
  endAll: () => void;
};

const now = () => performance.timeOrigin + performance.now();
const kind = process.env.BENCH_BARE_SSE;
if (kind !== 'node' && kind !== 'uws') throw new Error('BENCH_BARE_SSE must be node or uws');

async function nodeServer(): Promise<{ port: number; streams: Streams; close: () => Promise<void> }> {
  const held = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url !== '/stream') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, SSE_HEADERS);
    res.flushHeaders(); // as the API's node writer: the client sees the stream open now
    held.add(res);
    res.once('close', () => held.delete(res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no TCP address');
  return {
    port: address.port,
    streams: {
      count: () => held.size,
      write: (message) => {
        for (const res of held) res.write(message);
      },
      endAll: () => {
        for (const res of held) res.end();
        held.clear();
      },
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function uwsServer(): Promise<{ port: number; streams: Streams; close: () => Promise<void> }> {
  const uws = createRequire(import.meta.url)(
    '@btc-vision/uwebsockets.js',
  ) as typeof import('@btc-vision/uwebsockets.js');
  const held = new Set<HttpResponse>();
  const app = uws.App();
  app.get('/stream', (res) => {
    res.onAborted(() => held.delete(res));
    res.cork(() => {
      res.writeStatus('200 OK');
      for (const [name, value] of Object.entries(SSE_HEADERS)) res.writeHeader(name, value);
      // The head leaves with the first body bytes: the same comment the API's uWebSockets.js writer opens with.
      res.write(': open\n\n');
    });
    held.add(res);
  });
  app.any('/*', (res) => {
    res.cork(() => res.writeStatus('404 Not Found').end());
  });
  const port = await new Promise<number>((resolve, reject) =>
    app.listen('127.0.0.1', 0, (socket) =>
      socket ? resolve(uws.us_socket_local_port(socket as never)) : reject(new Error('listen failed')),
    ),
  );
  return {
    port,
    streams: {
      count: () => held.size,
      write: (message) => {
        for (const res of held) res.cork(() => res.write(message));
      },
      endAll: () => {
        for (const res of held) res.cork(() => res.end());
        held.clear();
      },
    },
    close: async () => {
      app.close();
    },
  };
}

const { port, streams, close } = kind === 'node' ? await nodeServer() : await uwsServer();

/** Publishes `schedule` on its offsets from now; events due meanwhile go out back to back, in order. */
function publish(schedule: BareEvent[]) {
  const t0 = now();
  const published: BarePublished['published'] = [];
  const to = streams.count();
  let next = 0;
  const step = () => {
    while (next < schedule.length && now() >= t0 + (schedule[next]?.offsetMs ?? 0)) {
      const event = schedule[next++] as BareEvent;
      const publishAt = t0 + event.offsetMs;
      streams.write(bareMessage(event, publishAt));
      published.push({ seq: event.seq, publishAt });
    }
    const due = schedule[next];
    if (due) {
      setTimeout(step, Math.max(0, t0 + due.offsetMs - now()));
      return;
    }
    streams.endAll();
    const report: BarePublished = { type: 'published', published, streams: to };
    process.send?.(report);
  };
  step();
}

process.on('message', (message: { type?: string; schedule?: BareEvent[] }) => {
  if (message?.type === 'publish' && message.schedule) publish(message.schedule);
  else if (message?.type === 'stats') {
    const cpu = process.cpuUsage();
    process.send?.({ type: 'stats', cpuSeconds: (cpu.user + cpu.system) / 1e6 });
  }
});
onStopRequest(close);
process.stdout.write(`${JSON.stringify({ port })}\n`);
