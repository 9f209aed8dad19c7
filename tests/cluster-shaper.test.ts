import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNetwork, type Host, type Network } from '../infra/cluster/netns.ts';

/**
 * The link shaper (infra/cluster/link-shaper.ts), as the cluster runs it: a sidecar on one host forwarding
 * its loopback ports to a server on another. Shaped, a round trip takes about twice the delay; what is sent
 * arrives whole and in order even with loss; clearing restores the speed; its connections leave from its
 * host, so a partition cuts them; a client's reset leaves it serving the next.
 */

const SHAPER = fileURLToPath(new URL('../infra/cluster/link-shaper.ts', import.meta.url));

/** Node inside `host`, running `script`, its stdout as it goes. */
function nodeIn(host: Host, script: string, stdin: 'pipe' | 'ignore' = 'ignore') {
  const child = host.spawn(process.execPath, ['-e', script], { stdio: [stdin, 'pipe', 'inherit'] });
  let out = '';
  child.stdout?.on('data', (chunk) => {
    out += chunk;
  });
  return { child, output: () => out };
}

/** What a script run inside `host` prints, parsed as JSON. */
async function runIn(host: Host, script: string): Promise<Record<string, unknown>> {
  const { child, output } = nodeIn(host, script);
  await once(child, 'exit');
  return JSON.parse(output()) as Record<string, unknown>;
}

const waitFor = async (output: () => string, pattern: RegExp, ms = 10_000) => {
  const deadline = Date.now() + ms;
  while (!pattern.test(output())) {
    if (Date.now() > deadline) throw new Error(`no ${pattern} in ${ms} ms: ${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

/** The median of `count` one-byte round trips through 127.0.0.1:`port` inside the host, in ms. */
const roundTrips = (port: number, count: number) => `
  const socket = require('node:net').connect(${port}, '127.0.0.1');
  socket.setNoDelay(true);
  const times = [];
  let sentAt = 0;
  const ping = () => { sentAt = performance.now(); socket.write('x'); };
  socket.on('connect', ping);
  socket.on('data', () => {
    times.push(performance.now() - sentAt);
    if (times.length < ${count}) return ping();
    times.sort((a, b) => a - b);
    console.log(JSON.stringify({ median: times[Math.floor(times.length / 2)], times }));
    socket.destroy();
  });
  socket.on('error', (e) => console.log(JSON.stringify({ error: e.code })));`;

/** Sends `bytes` numbered bytes (a 32-bit counter) then ends; checks what comes back until the end. */
const numbered = (port: number, bytes: number) => `
  const sent = Buffer.alloc(${bytes});
  for (let i = 0; i < ${bytes} / 4; i++) sent.writeUInt32BE(i, i * 4);
  const socket = require('node:net').connect(${port}, '127.0.0.1');
  const parts = [];
  const startedAt = performance.now();
  socket.on('connect', () => { socket.write(sent); socket.end(); });
  socket.on('data', (chunk) => parts.push(chunk));
  socket.on('end', () => {
    const got = Buffer.concat(parts);
    console.log(JSON.stringify({ length: got.length, intact: got.equals(sent), ms: performance.now() - startedAt }));
  });
  socket.on('error', (e) => console.log(JSON.stringify({ error: e.code })));`;

/** What 127.0.0.1:`port` inside the host answers within `ms`: the reply, `timeout`, or `error <code>`. */
const probe = (port: number, ms: number) => `
  const socket = require('node:net').connect(${port}, '127.0.0.1');
  const say = (result) => { console.log(JSON.stringify({ result })); process.exit(0); };
  setTimeout(() => say('timeout'), ${ms});
  socket.on('connect', () => socket.write('ping'));
  socket.on('data', (d) => say(String(d)));
  socket.on('error', (e) => say('error ' + e.code));`;

describe('the link shaper', () => {
  let network: Network;
  let near: Host;
  let far: Host;
  const children: ChildProcess[] = [];
  let shaper: ReturnType<typeof nodeIn>;

  /** Sends a command to the shaper and waits for its answer. */
  const shape = async (command: Record<string, number>) => {
    const from = shaper.output().length;
    shaper.child.stdin?.write(`${JSON.stringify(command)}\n`);
    await waitFor(() => shaper.output().slice(from), /^shaped /m);
  };

  beforeAll(async () => {
    network = await createNetwork();
    near = await network.addHost('near');
    far = await network.addHost('far');
    // On the far host: an echo server, and one that answers with the address a connection came from.
    const servers = nodeIn(
      far,
      `const net = require('node:net');
       const serve = (port, handle) => net.createServer({ allowHalfOpen: true }, (s) => {
         s.on('error', () => {}); // a reset passed on by the shaper
         handle(s);
       }).listen(port, '0.0.0.0');
       serve(7000, (s) => s.pipe(s));
       serve(7002, (s) => s.on('data', () => s.resetAndDestroy()));
       serve(7001, (s) => s.end(s.remoteAddress)).on('listening', () => console.log('listening'));`,
    );
    children.push(servers.child);
    await waitFor(servers.output, /listening/);
    const child = near.spawn(
      process.execPath,
      [SHAPER, `17000=${far.ip}:7000`, `17001=${far.ip}:7001`, `17002=${far.ip}:7002`],
      {
        stdio: ['pipe', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout?.on('data', (chunk) => {
      out += chunk;
    });
    shaper = { child, output: () => out };
    children.push(child);
    await waitFor(shaper.output, /link-shaper ready/);
  }, 60_000);
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await network?.teardown();
  });

  it('forwards at once unshaped, about twice the delay shaped, and at once again when cleared', async () => {
    const unshaped = await runIn(near, roundTrips(17000, 30));
    expect(unshaped.median).toBeLessThan(50);
    await shape({ delayMs: 200, jitterMs: 100, loss: 0.05 });
    const shaped = await runIn(near, roundTrips(17000, 15));
    // 200 ± 100 ms each way, and now and then a retransmission timeout more.
    expect(shaped.median).toBeGreaterThanOrEqual(200);
    await shape({ delayMs: 0, jitterMs: 0, loss: 0 });
    const cleared = await runIn(near, roundTrips(17000, 30));
    expect(cleared.median).toBeLessThan(50);
    console.log(
      `round trip through the shaper: unshaped ${unshaped.median} ms, shaped ${shaped.median} ms, cleared ${cleared.median} ms`,
    );
  }, 60_000);

  it('delivers 2 MB through a shaped, lossy link whole and in order, and passes the end on', async () => {
    await shape({ delayMs: 200, jitterMs: 100, loss: 0.05 });
    try {
      const shaped = await runIn(near, numbered(17000, 2_000_000));
      expect(shaped).toMatchObject({ length: 2_000_000, intact: true });
      expect(shaped.ms).toBeGreaterThanOrEqual(200);
      console.log(`2 MB echoed through the shaped, lossy link in ${shaped.ms} ms, intact`);
    } finally {
      await shape({ delayMs: 0, jitterMs: 0, loss: 0 });
    }
    const unshaped = await runIn(near, numbered(17000, 2_000_000));
    expect(unshaped).toMatchObject({ length: 2_000_000, intact: true });
    console.log(`2 MB echoed through the unshaped link in ${unshaped.ms} ms, intact`);
  }, 60_000);

  it('shapes one route alone when a command names its port', async () => {
    await shape({ port: 17001, delayMs: 300, jitterMs: 0, loss: 0 });
    try {
      expect((await runIn(near, roundTrips(17000, 10))).median).toBeLessThan(50);
    } finally {
      await shape({ delayMs: 0, jitterMs: 0, loss: 0 });
    }
  }, 30_000);

  it("connects from its own host's address, so a partition of its host cuts the shaped route too", async () => {
    expect(await runIn(near, probe(17001, 3000))).toEqual({ result: near.ip });
    await shape({ delayMs: 200, jitterMs: 100, loss: 0.05 });
    await network.partition(near, far);
    try {
      expect(await runIn(near, probe(17000, 3000))).toEqual({ result: 'timeout' });
    } finally {
      await network.heal(near, far);
      await shape({ delayMs: 0, jitterMs: 0, loss: 0 });
    }
    expect(await runIn(near, probe(17000, 3000))).toEqual({ result: 'ping' });
  }, 30_000);

  it("serves the next connection after a client's reset, shaped (data held) or not", async () => {
    const resetting = `const socket = require('node:net').connect(17000, '127.0.0.1');
       socket.on('error', () => {});
       socket.on('connect', () => { socket.write('x'.repeat(100000)); setTimeout(() => { socket.resetAndDestroy(); console.log('{}'); }, 50); });`;
    await shape({ delayMs: 200, jitterMs: 100, loss: 0.05 });
    try {
      await runIn(near, resetting);
    } finally {
      await shape({ delayMs: 0, jitterMs: 0, loss: 0 });
    }
    await runIn(near, resetting);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(shaper.child.exitCode).toBeNull();
    // A reset from the server's side reaches the client as one.
    expect(await runIn(near, probe(17002, 3000))).toEqual({ result: 'error ECONNRESET' });
    expect(await runIn(near, probe(17000, 3000))).toEqual({ result: 'ping' });
  }, 30_000);
});
