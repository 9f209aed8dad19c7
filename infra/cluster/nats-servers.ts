import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Host, Network } from './netns.ts';

/** Ports of every NATS server, each on its own host: clients, routes to the other servers, the monitor. */
export const NATS_PORTS = { client: 4222, route: 6222, monitor: 8222 } as const;

/** The NATS cluster's name, as its servers' INFO and the service's refusals name it. */
export const NATS_CLUSTER_NAME = 'verdict';

/**
 * A NATS server's command line on `host`: JetStream with its own store in `dir`, and in a cluster of more than
 * one a config file written there naming it, its routes to the others and its monitor port (for the JetStream
 * meta leader, `/jsz`). The servers do not advertise one another's addresses to clients (`no_advertise`):
 * a node keeps to the servers its NATS_URL lists, through its link shaper, and does not learn the servers'
 * own addresses, which would bypass it.
 */
export async function natsServerArgs(host: Host, peers: Host[], dir: string): Promise<string[]> {
  const store = join(dir, `nats-${host.name}`);
  if (peers.length <= 1) {
    return ['-js', '-a', host.ip, '-p', String(NATS_PORTS.client), '-sd', store];
  }
  const routes = peers.map((peer) => `nats-route://${peer.ip}:${NATS_PORTS.route}`).join(', ');
  const config = join(dir, `nats-${host.name}.conf`);
  await writeFile(
    config,
    [
      `server_name: ${host.name}`,
      `listen: ${host.ip}:${NATS_PORTS.client}`,
      `http: ${host.ip}:${NATS_PORTS.monitor}`,
      `jetstream { store_dir: "${store}" }`,
      `cluster { name: ${NATS_CLUSTER_NAME}, listen: ${host.ip}:${NATS_PORTS.route}, no_advertise: true, routes: [${routes}] }`,
    ].join('\n'),
  );
  return ['-c', config];
}

/**
 * The server name of the JetStream meta leader as `host`'s server sees it (its monitor's `/jsz`), or null
 * while there is none (an election under way, the server down or cut off).
 */
export async function metaLeaderSeenBy(host: Host): Promise<string | null> {
  const jsz = await fetch(`http://${host.ip}:${NATS_PORTS.monitor}/jsz`, {
    signal: AbortSignal.timeout(2000),
  })
    .then((res) => res.json() as Promise<{ meta_cluster?: { leader?: string } }>)
    .catch(() => null);
  return jsz?.meta_cluster?.leader ?? null;
}

/** Waits until every one of `hosts` names the same JetStream meta leader (a cluster that formed); answers it. */
export async function agreedMetaLeader(hosts: Host[], withinMs = 30_000): Promise<string> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const seen = await Promise.all(hosts.map(metaLeaderSeenBy));
    const [first] = seen;
    if (first && seen.every((leader) => leader === first)) return first;
    if (Date.now() > deadline) {
      throw new Error(
        `the NATS servers agreed on no JetStream meta leader in ${withinMs} ms: ${seen.join(', ')}`,
      );
    }
    await sleep(100);
  }
}

/** Cuts `host` from each of `others` (both ways), as netns.ts partitions two hosts; `heal` mends the same. */
export function isolation(network: Network, host: Host, others: Host[]) {
  return {
    cut: async () => {
      for (const other of others) await network.partition(host, other);
    },
    heal: async () => {
      for (const other of others) await network.heal(host, other);
    },
  };
}
