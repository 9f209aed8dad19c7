import { connect, createServer, type Server, type Socket } from 'node:net';
import { createInterface } from 'node:readline';

/**
 * A link shaper: slow, lossy links for the test cluster, made in user space (this machine's kernel has no
 * `sch_netem`, see netns.ts). A sidecar: cluster.ts starts one inside a node's network namespace, and the
 * node reaches PostgreSQL and NATS through it, so its connections to them leave from the node's own
 * address (a partition of the node's host from the target still cuts them).
 *
 *   node link-shaper.ts <localPort>=<targetIp>:<targetPort> ...
 *
 * Listens on 127.0.0.1:<localPort> for each route and forwards each connection to its target; prints
 * `link-shaper ready` once every listener is up. Commands come as JSON lines on stdin, and each is
 * answered with one line on stdout, `shaped <json>` (or `error <reason>`), so the caller can await it:
 *
 *   {"delayMs":200,"jitterMs":100,"loss":0.05}             every route
 *   {"port":15432,"delayMs":200,"jitterMs":100,"loss":0.05} one route
 *   {"delayMs":0,"jitterMs":0,"loss":0}                    clears
 *
 * What shaping means, on each connection of a shaped route, in each direction: a chunk read from one side
 * is written to the other after `delayMs` plus a uniform jitter in ±`jitterMs` (never below 0), and never
 * before a chunk read earlier on the same connection and direction (TCP does not reorder: a late chunk
 * holds back those after it). A round trip through a shaped route is so about twice `delayMs`. `loss` is
 * packet loss as a TCP application sees it: the data arrives late, never missing. With probability `loss`
 * a chunk is held one retransmission timeout more (Linux's minimum RTO, 200 ms), and if drawn again the
 * timeout doubles (400, 800 ms…), as retransmissions of the same segment back off. The end of a direction
 * (a FIN) is delayed like a chunk; a reset (an error on one side) destroys the other at once, dropping
 * what was still held. A change of shaping applies to the chunks read from then on, on open connections
 * too; what is already held keeps its time.
 *
 * Unshaped (or once cleared and what was held is delivered), a chunk is written as soon as it is read,
 * with backpressure: the side read from is paused while the other's buffer is full, as `pipe` does.
 * Shaped, it is paused while more than HIGH_WATER bytes are held. The shaper exits when its stdin closes
 * (whoever started it is gone).
 */

type Shaping = { delayMs: number; jitterMs: number; loss: number };

type Route = { port: number; targetIp: string; targetPort: number; shaping: Shaping; server: Server };

const UNSHAPED: Shaping = { delayMs: 0, jitterMs: 0, loss: 0 };
/** Linux's minimum retransmission timeout. */
const MIN_RTO_MS = 200;
/** Bytes held on one direction of a connection before its source is paused. */
const HIGH_WATER = 1 << 20;
const LOW_WATER = HIGH_WATER / 2;

const isShaped = (shaping: Shaping) => shaping.delayMs > 0 || shaping.jitterMs > 0 || shaping.loss > 0;

/** How long a chunk read now is held: delay, jitter, and a retransmission timeout per loss drawn. */
function holdFor(shaping: Shaping): number {
  let ms = Math.max(0, shaping.delayMs + (Math.random() * 2 - 1) * shaping.jitterMs);
  for (let rto = MIN_RTO_MS; shaping.loss > 0 && Math.random() < shaping.loss; rto *= 2) ms += rto;
  return ms;
}

/** One direction of a connection: what `from` sends, written to `to` as `shaping()` says. */
function lane(from: Socket, to: Socket, shaping: () => Shaping) {
  /** Held chunks in order, each with the time it is due; `null` is the end of the direction. */
  const held: { at: number; chunk: Buffer | null }[] = [];
  let heldBytes = 0;
  let lastAt = 0;
  let timer: NodeJS.Timeout | undefined;
  /** `to`'s buffer is full: nothing more is written until it drains. */
  let blocked = false;
  let pausedByUs = false;

  const pause = () => {
    if (pausedByUs) return;
    pausedByUs = true;
    from.pause();
  };
  const resumeIfRoom = () => {
    if (pausedByUs && !blocked && heldBytes <= LOW_WATER) {
      pausedByUs = false;
      from.resume();
    }
  };
  const deliver = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (to.destroyed) return;
    const now = performance.now();
    for (let next = held[0]; next && !blocked && next.at <= now; next = held[0]) {
      held.shift();
      if (next.chunk === null) {
        to.end();
        return;
      }
      heldBytes -= next.chunk.length;
      if (!to.write(next.chunk)) blocked = true;
    }
    const head = held[0];
    if (head && !blocked) timer = setTimeout(deliver, Math.max(0, head.at - now));
    resumeIfRoom();
  };
  const hold = (chunk: Buffer | null) => {
    const now = performance.now();
    const at = Math.max(now + holdFor(shaping()), lastAt);
    lastAt = at;
    held.push({ at, chunk });
    if (chunk) heldBytes += chunk.length;
    if (heldBytes > HIGH_WATER) pause();
    if (held.length === 1 && !blocked) timer = setTimeout(deliver, Math.max(0, at - now));
  };

  from.on('data', (chunk: Buffer) => {
    if (held.length > 0 || isShaped(shaping())) {
      hold(chunk);
      return;
    }
    if (!to.write(chunk)) {
      blocked = true;
      pause();
    }
  });
  from.on('end', () => {
    if (held.length > 0 || isShaped(shaping())) hold(null);
    else to.end();
  });
  to.on('drain', () => {
    blocked = false;
    if (held.length > 0) deliver();
    else resumeIfRoom();
  });
  return {
    stop: () => {
      if (timer) clearTimeout(timer);
      timer = undefined;
      held.length = 0;
      heldBytes = 0;
    },
  };
}

/** Forwards one accepted connection to the route's target, both directions shaped as the route is now. */
function forward(route: Route, client: Socket) {
  const upstream = connect({ host: route.targetIp, port: route.targetPort, allowHalfOpen: true });
  client.setNoDelay(true);
  upstream.setNoDelay(true);
  const lanes = [lane(client, upstream, () => route.shaping), lane(upstream, client, () => route.shaping)];
  const reset = (peer: Socket) => () => {
    for (const each of lanes) each.stop();
    if (!peer.destroyed) peer.resetAndDestroy();
  };
  client.on('error', reset(upstream));
  upstream.on('error', reset(client));
  const closed = () => {
    if (client.destroyed && upstream.destroyed) for (const each of lanes) each.stop();
  };
  client.on('close', closed);
  upstream.on('close', closed);
}

function parseRoute(arg: string): Omit<Route, 'server'> {
  const match = /^(\d+)=([\d.]+):(\d+)$/.exec(arg);
  if (!match) throw new Error(`a route is <localPort>=<targetIp>:<targetPort>, not ${arg}`);
  return {
    port: Number(match[1]),
    targetIp: match[2] as string,
    targetPort: Number(match[3]),
    shaping: UNSHAPED,
  };
}

/** A command's shaping, checked: numbers, none negative, loss below 1. */
function parseCommand(line: string): { port: number | undefined; shaping: Shaping } {
  const command = JSON.parse(line) as Record<string, unknown>;
  const number = (key: string) => {
    const value = command[key] ?? 0;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new Error(`${key} must be a number ≥ 0`);
    }
    return value;
  };
  const shaping = { delayMs: number('delayMs'), jitterMs: number('jitterMs'), loss: number('loss') };
  if (shaping.loss >= 1) throw new Error('loss must be below 1');
  const port = command.port === undefined ? undefined : number('port');
  return { port, shaping };
}

async function main() {
  const routes: Route[] = [];
  for (const arg of process.argv.slice(2)) {
    const route = parseRoute(arg);
    const server: Server = createServer({ allowHalfOpen: true }, (client) => forward(full, client));
    const full: Route = { ...route, server };
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(route.port, '127.0.0.1', () => resolve());
    });
    routes.push(full);
  }
  if (routes.length === 0) throw new Error('no route: <localPort>=<targetIp>:<targetPort> ...');
  const input = createInterface({ input: process.stdin });
  input.on('line', (line) => {
    if (line.trim() === '') return;
    try {
      const { port, shaping } = parseCommand(line);
      const chosen = port === undefined ? routes : routes.filter((route) => route.port === port);
      if (chosen.length === 0) throw new Error(`no route on port ${port}`);
      for (const route of chosen) route.shaping = shaping;
      console.log(`shaped ${JSON.stringify({ ports: chosen.map((route) => route.port), ...shaping })}`);
    } catch (error) {
      console.log(`error ${(error as Error).message}`);
    }
  });
  input.on('close', () => process.exit(0));
  console.log(
    `link-shaper ready ${routes.map((route) => `${route.port}=${route.targetIp}:${route.targetPort}`).join(' ')}`,
  );
}

main().catch((error: unknown) => {
  console.error(`link-shaper: ${(error as Error).message}`);
  process.exit(1);
});
