import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNetwork, type Host, type Network, OWNERS_DIR } from '../infra/cluster/netns.ts';

/**
 * The cluster's network (infra/cluster/netns.ts): hosts in namespaces of their own reach each other and the
 * machine over the bridge, a partition drops their packets both ways until it is healed, and nothing is
 * left behind.
 */

/** A TCP echo server inside `host`, on `port`: Node, as every process of the cluster is. */
function echoServer(host: Host, port: number) {
  const script = `require('node:net').createServer((s) => s.pipe(s)).listen(${port}, '0.0.0.0', () => console.log('listening'))`;
  const child = host.spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  return child;
}

/** What `from` gets from `to`:`port` within `ms`: `echo`, `timeout` (packets lost), or `error <code>`. */
async function probe(from: Host, to: Host, port: number, ms = 1500): Promise<string> {
  const script = `
    const socket = require('node:net').connect(${port}, '${to.ip}');
    const timer = setTimeout(() => { console.log('timeout'); process.exit(0); }, ${ms});
    socket.on('connect', () => socket.write('ping'));
    socket.on('data', (d) => { console.log(String(d) === 'ping' ? 'echo' : 'other'); process.exit(0); });
    socket.on('error', (e) => { console.log('error ' + e.code); process.exit(0); });`;
  const child = from.spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout?.on('data', (chunk) => {
    out += chunk;
  });
  await once(child, 'exit');
  return out.trim();
}

const reaches = async (from: Host, to: Host, port: number) => (await probe(from, to, port)) === 'echo';

describe('the cluster network', () => {
  let network: Network;
  let a: Host;
  let b: Host;
  let c: Host;
  const servers: ReturnType<typeof echoServer>[] = [];

  beforeAll(async () => {
    network = await createNetwork();
    [a, b, c] = [await network.addHost('a'), await network.addHost('b'), await network.addHost('c')];
    for (const host of [b, c]) {
      const server = echoServer(host, 7000);
      servers.push(server);
      await new Promise<void>((resolve) => server.stdout?.once('data', () => resolve()));
    }
  });
  afterAll(async () => {
    for (const server of servers) server.kill('SIGKILL');
    await network?.teardown();
  });

  it('gives each host an address of its own on one subnet, reachable from the others', async () => {
    expect(new Set([a.ip, b.ip, c.ip]).size).toBe(3);
    expect(await reaches(a, b, 7000)).toBe(true);
    expect(await reaches(a, c, 7000)).toBe(true);
    // The machine itself (a test, a fake provider) is on the bridge too.
    const socket = connect(7000, b.ip);
    socket.write('ping');
    const [echoed] = await once(socket, 'data');
    socket.destroy();
    expect(String(echoed)).toBe('ping');
    expect(network.gatewayIp).toMatch(/^10\.\d+\.0\.1$/);
  });

  it('loses the packets of a partitioned pair both ways, silently, leaves the others, and heals', async () => {
    await network.partition(a, b);
    // Lost, not refused: the caller waits, as across a cut link.
    expect(await probe(a, b, 7000)).toBe('timeout');
    expect(await probe(b, a, 7000)).toBe('timeout');
    expect(await reaches(a, c, 7000)).toBe(true);
    await network.partition(a, b); // cutting twice is one cut
    await network.heal(a, b);
    expect(await reaches(a, b, 7000)).toBe(true);
    await network.heal(a, b); // healing a whole link changes nothing
    expect(await reaches(a, b, 7000)).toBe(true);
  });

  it("sweeps a network whose maker is gone, and leaves a live run's", async () => {
    const abandoned = await createNetwork();
    await abandoned.addHost('x');
    // As if the run that made it had been killed: its owner file names a process that does not exist.
    await writeFile(join(OWNERS_DIR, abandoned.prefix), '2147483646');
    const next = await createNetwork();
    try {
      const namespaces = execFileSync('ip', ['netns', 'list']).toString();
      expect(namespaces).not.toContain(`${abandoned.prefix}-`);
      expect(namespaces).toContain(`${network.prefix}-a`);
      expect(await reaches(a, b, 7000)).toBe(true);
    } finally {
      await next.teardown();
    }
  });

  it('leaves no namespace and no bridge after teardown', async () => {
    const probe = await createNetwork();
    await probe.addHost('x');
    await probe.teardown();
    expect(execFileSync('ip', ['netns', 'list']).toString()).not.toContain(`${probe.prefix}-`);
    expect(execFileSync('ip', ['link', 'show']).toString()).not.toContain(probe.prefix);
  });
});
