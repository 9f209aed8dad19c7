import type { Cluster, ClusterProcess } from './cluster.ts';
import { agreedMetaLeader, isolation } from './nats-servers.ts';

/**
 * The faults of a three-server NATS cluster (cluster.ts with `natsServers: 3`), shared by the scripted test
 * (tests/cluster-nats.test.ts) and the chaos runs: one server killed -9 (restarted at the end), one server
 * cut from the other two (its clients' links stay up: they keep talking to a server in the minority), the
 * JetStream meta leader killed -9 (the other two elect another).
 */
export type NatsFaultKind = 'nats-server-kill' | 'nats-server-partition' | 'nats-meta-leader-kill';

export const NATS_FAULT_KINDS: NatsFaultKind[] = [
  'nats-server-kill',
  'nats-server-partition',
  'nats-meta-leader-kill',
];

export type NatsFault = {
  /** The server it hit (its host's name). */
  target: string;
  /** Mends it (restart, heal), then waits until all three servers agree on a meta leader again. */
  end: () => Promise<void>;
};

/**
 * Begins a fault of `kind` on one server (`pick` chooses which, but for the meta leader's); resolves once it
 * is in force, with how to end it.
 */
export async function beginNatsFault(
  cluster: Cluster,
  kind: NatsFaultKind,
  pick: (servers: ClusterProcess[]) => ClusterProcess,
): Promise<NatsFault> {
  const servers = cluster.natsServers;
  if (servers.length < 3) throw new Error(`${kind} needs the three-server NATS cluster (natsServers: 3)`);
  const hosts = servers.map((server) => server.host);
  const formed = () => agreedMetaLeader(hosts, 60_000).then(() => {});
  if (kind === 'nats-server-partition') {
    const server = pick(servers);
    const cut = isolation(
      cluster.network,
      server.host,
      hosts.filter((host) => host !== server.host),
    );
    await cut.cut();
    return { target: server.name, end: () => cut.heal().then(formed) };
  }
  const server = kind === 'nats-meta-leader-kill' ? await metaLeader(servers) : pick(servers);
  await server.kill();
  return { target: server.name, end: () => server.restart().then(formed) };
}

/** The server the three agree leads JetStream's meta group now. */
async function metaLeader(servers: ClusterProcess[]): Promise<ClusterProcess> {
  const leader = await agreedMetaLeader(servers.map((server) => server.host));
  const server = servers.find((each) => each.host.name === leader);
  if (!server) throw new Error(`the meta leader ${leader} is none of the cluster's NATS servers`);
  return server;
}
