import { execFile, type SpawnOptions, spawn } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * A private network of hosts for the cluster tests: one Linux network namespace per host, each joined by a
 * veth pair to a bridge in the machine's own namespace, on a /24 of its own. Nothing is routed off the
 * bridge (no default route, no forwarding), so traffic never leaves the namespaces and the machine's own
 * interfaces are untouched. A partition points each side's neighbour entry for the other at a MAC address
 * no interface has, so their frames go nowhere and packets are lost silently, as on a cut link: a connection
 * stalls and retransmits, a new one times out. (A blackhole or unreachable route would fail the sender's
 * calls at once, which no real partition does; this machine has no netfilter tools to drop them.) Needs
 * root (CAP_NET_ADMIN) and `ip` (iproute2).
 *
 * Latency and loss are not made here: the kernel of this machine has no `sch_netem` (tc answers "qdisc kind
 * is unknown"), so slow links are made in user space by link-shaper.ts, a forwarding sidecar cluster.ts
 * starts on each node's host (its connections still leave from that host, so a partition cuts them too).
 */
export type Host = {
  name: string;
  /** The namespace's name (`<prefix>-<name>`). */
  namespace: string;
  ip: string;
  /** Spawns a command inside the host's namespace. */
  spawn: (command: string, args: string[], options?: SpawnOptions) => ReturnType<typeof spawn>;
};

export type Network = {
  prefix: string;
  /** The bridge's own address: where the machine (a test, a fake provider) is reached from every host. */
  gatewayIp: string;
  addHost: (name: string) => Promise<Host>;
  hosts: () => Host[];
  /** Cuts the link between two hosts both ways, until `heal`. */
  partition: (a: Host, b: Host) => Promise<void>;
  heal: (a: Host, b: Host) => Promise<void>;
  /** Removes every namespace, link and the bridge (idempotent). */
  teardown: () => Promise<void>;
};

const ip = (...args: string[]) => run('ip', args);
const inNamespace = (namespace: string, ...args: string[]) =>
  run('ip', ['netns', 'exec', namespace, ...args]);

/** A locally administered unicast MAC address no interface here has: frames sent to it are lost. */
const NOWHERE = '02:00:00:00:de:ad';

/** Interface names are at most 15 characters: the prefix is 6 (`vc` and four hex digits), a host name ≤ 6. */
const HOST_PATTERN = /^[a-z][a-z0-9]{0,5}$/;

/**
 * Which process made each network, by prefix: a network whose maker is gone is swept by the next one. Beside
 * `ip netns`'s own /run/netns rather than under TMPDIR: the networks are the machine's, and a test run keeps
 * its temporary files in a folder of its own (infra/test.sh) that the next run never sees.
 */
export const OWNERS_DIR = '/run/verdict-netns';

/**
 * Creates a network of its own: a fresh prefix (`vc` and four hex digits, so runs side by side never share
 * a name) and a 10.x.0.0/24 that no address of the machine is in, the bridge at 10.x.0.1. Networks left by
 * runs whose process is gone (a crash, a kill) are removed first; a live run's are left alone.
 */
export async function createNetwork(): Promise<Network> {
  await sweepAbandoned();
  const prefix = `vc${randomBytes(2).toString('hex')}`;
  const octet = await freeOctet();
  await mkdir(OWNERS_DIR, { recursive: true });
  await writeFile(join(OWNERS_DIR, prefix), String(process.pid));
  const bridge = `${prefix}br`;
  const gatewayIp = `10.${octet}.0.1`;
  await ip('link', 'add', bridge, 'type', 'bridge');
  await ip('addr', 'add', `${gatewayIp}/24`, 'dev', bridge);
  await ip('link', 'set', bridge, 'up');
  const hosts: Host[] = [];

  const addHost = async (name: string): Promise<Host> => {
    if (!HOST_PATTERN.test(name)) throw new Error(`host name ${name}: 1–6 lowercase letters or digits`);
    const namespace = `${prefix}-${name}`;
    const address = `10.${octet}.0.${hosts.length + 2}`;
    const outside = `${prefix}${name}`;
    await ip('netns', 'add', namespace);
    await ip('link', 'add', outside, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', namespace);
    await ip('link', 'set', outside, 'master', bridge);
    await ip('link', 'set', outside, 'up');
    await inNamespace(namespace, 'ip', 'addr', 'add', `${address}/24`, 'dev', 'eth0');
    await inNamespace(namespace, 'ip', 'link', 'set', 'eth0', 'up');
    await inNamespace(namespace, 'ip', 'link', 'set', 'lo', 'up');
    const host: Host = {
      name,
      namespace,
      ip: address,
      spawn: (command, args, options = {}) =>
        spawn('ip', ['netns', 'exec', namespace, command, ...args], options),
    };
    hosts.push(host);
    return host;
  };

  const cut = (from: Host, to: Host) =>
    inNamespace(
      from.namespace,
      'ip',
      'neigh',
      'replace',
      to.ip,
      'lladdr',
      NOWHERE,
      'nud',
      'permanent',
      'dev',
      'eth0',
    );
  // The entry goes; the next packet asks for the real address again (ARP), as after any cable is plugged in.
  const mend = (from: Host, to: Host) =>
    inNamespace(from.namespace, 'ip', 'neigh', 'del', to.ip, 'dev', 'eth0').catch(() => {});

  return {
    prefix,
    gatewayIp,
    addHost,
    hosts: () => [...hosts],
    partition: async (a, b) => {
      await cut(a, b);
      await cut(b, a);
    },
    heal: async (a, b) => {
      await mend(a, b);
      await mend(b, a);
    },
    teardown: async () => {
      await removeNetwork(prefix);
      await rm(join(OWNERS_DIR, prefix), { force: true });
    },
  };
}

/** Removes the networks whose maker is no longer running. */
async function sweepAbandoned(): Promise<void> {
  const prefixes = await readdir(OWNERS_DIR).catch(() => [] as string[]);
  for (const prefix of prefixes) {
    const owner = Number(await readFile(join(OWNERS_DIR, prefix), 'utf8').catch(() => '0'));
    if (isAlive(owner)) continue;
    await removeNetwork(prefix);
    await rm(join(OWNERS_DIR, prefix), { force: true });
  }
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A second octet x in 100–254 such that no address of the machine is in 10.x.0.0/16, picked at random. */
async function freeOctet(): Promise<number> {
  const { stdout } = await ip('-o', '-4', 'addr', 'show');
  const used = new Set([...stdout.matchAll(/inet 10\.(\d+)\./g)].map((match) => Number(match[1])));
  const free = Array.from({ length: 155 }, (_, i) => 100 + i).filter((octet) => !used.has(octet));
  const octet = free[randomInt(free.length)];
  if (octet === undefined) throw new Error('no free 10.x.0.0/16 for a test network');
  return octet;
}

/** Removes the namespaces `<prefix>-*`, their links (which go with them) and the bridge `<prefix>br`. */
export async function removeNetwork(prefix: string): Promise<void> {
  const { stdout } = await ip('netns', 'list');
  const namespaces = stdout
    .split('\n')
    .map((line) => line.split(' ')[0] ?? '')
    .filter((name) => name.startsWith(`${prefix}-`));
  for (const namespace of namespaces) await ip('netns', 'del', namespace);
  // A namespace's links go with it, but the kernel takes them down in the background: the machine's ends
  // are removed here, so a network made again at once under the same names finds none of them.
  const links = (await ip('-o', 'link', 'show')).stdout
    .split('\n')
    .map((line) => /^\d+: ([^:@]+)/.exec(line)?.[1] ?? '')
    .filter((name) => name.startsWith(prefix));
  for (const link of links) await ip('link', 'del', link).catch(() => {});
}
