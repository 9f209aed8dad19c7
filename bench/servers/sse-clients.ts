/**
 * SSE clients in a process of their own (bench/lib/sse-clients.ts starts it): fleets of raw node:http
 * clients (lib/debates-sse.ts), so the servers under test, the runner and the clients never share an event
 * loop, and several such processes can hold more sockets than one holds well. Prints {"pid"} when ready;
 * over IPC:
 *
 *   {type:'open', url, headers, count, concurrency} → {type:'opened', connected, connectMs, failures (the
 *       first 5), failed}: a new fleet, once every client has its response headers or failed
 *   {type:'held'}   → {type:'held', open, rssBytes}: the clients of every fleet whose stream is still open
 *   {type:'finish', timeoutMs} → {type:'finished', outcomes}: every fleet's outcomes, once their streams
 *       ended (or at the timeout), in the order the fleets were opened
 *
 * Stops (closing every socket) when the IPC channel closes.
 */
import { openSseFleet, type SseFleet } from '../lib/debates-sse.ts';
import { onStopRequest } from '../lib/spawn-server.ts';

type Message =
  | { type: 'open'; url: string; headers: Record<string, string>; count: number; concurrency: number }
  | { type: 'held' }
  | { type: 'finish'; timeoutMs: number };

const fleets: SseFleet[] = [];
const send = (message: object) => {
  if (process.connected) process.send?.(message);
};

async function handle(message: Message) {
  if (message.type === 'open') {
    const fleet = await openSseFleet(message.url, message.headers, message.count, message.concurrency);
    fleets.push(fleet);
    send({
      type: 'opened',
      connected: fleet.connected,
      connectMs: fleet.connectMs,
      failures: fleet.failures.slice(0, 5),
      failed: fleet.failures.length,
    });
  } else if (message.type === 'held') {
    const open = fleets.reduce((n, fleet) => n + fleet.stillOpen(), 0);
    send({ type: 'held', open, rssBytes: process.memoryUsage().rss });
  } else if (message.type === 'finish') {
    const each = await Promise.all(fleets.map((fleet) => fleet.finished(message.timeoutMs)));
    fleets.length = 0;
    send({ type: 'finished', outcomes: each.flat() });
  }
}

process.on('message', (message: Message) => {
  handle(message).catch((err: unknown) => {
    process.stderr.write(`sse-clients: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  });
});
onStopRequest(async () => {
  for (const fleet of fleets) fleet.close();
});
process.stdout.write(`${JSON.stringify({ pid: process.pid })}\n`);
