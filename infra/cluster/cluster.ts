import { type ChildProcess, execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { chmod, chown, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { agreedMetaLeader, natsServerArgs } from './nats-servers.ts';
import { createNetwork, type Host, type Network } from './netns.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The test cluster: PostgreSQL, NATS, API processes and engine nodes, each on a host of its own (a network
 * namespace, netns.ts), so a fault can cut one link and leave the others: an engine from NATS but not from
 * PostgreSQL, an API process from the bus. The machine (the test, the fake providers it serves) sits on the
 * bridge at `network.gatewayIp`. Processes are this repository's own entry points on this Node; PostgreSQL
 * and NATS are the installed binaries (PG_BIN, NATS_SERVER_BIN: what infra/test.sh found or installed).
 * API processes and engine nodes reach PostgreSQL and NATS through a link shaper on their own host
 * (link-shaper.ts), which a fault can slow (`shape`). NATS is one server, or with `natsServers: 3` a cluster
 * of three (nats-servers.ts), each on its own host, every stream kept on all three (NATS_STREAM_REPLICAS=3).
 */
export type ClusterProcess = {
  name: string;
  host: Host;
  /** The process running now (a restart replaces it). */
  child: () => ChildProcess;
  output: () => string;
  /** SIGKILL, then waits for the exit. */
  kill: () => Promise<void>;
  /** SIGSTOP: the process stops where it is, its sockets open (a zombie, once its lease is taken). */
  pause: () => void;
  resume: () => void;
  /** Starts it again on the same host, with the same settings; resolves once it is ready. */
  restart: () => Promise<void>;
};

export type Shaping = { delayMs: number; jitterMs: number; loss: number };

/** A slow, lossy link: 200 ms ± 100 ms each way, 5 % of the chunks held a retransmission timeout more. */
export const SLOW_LINK: Shaping = { delayMs: 200, jitterMs: 100, loss: 0.05 };

/** An API process or engine node: it reaches PostgreSQL and NATS through its host's link shaper. */
export type NodeProcess = ClusterProcess & {
  /** Slows that link of this node (link-shaper.ts says how), or with `null` clears it; resolves once in force. */
  shape: (link: 'postgres' | 'nats', shaping: Shaping | null) => Promise<void>;
};

export type Cluster = {
  network: Network;
  postgres: ClusterProcess;
  /** The NATS server, or the first of the cluster's. */
  nats: ClusterProcess;
  /** Every NATS server (one, or the cluster's three), each on a host of its own. */
  natsServers: ClusterProcess[];
  apis: (NodeProcess & { baseUrl: string })[];
  /** Each with its operator port's /metrics as the machine reaches it. */
  engines: (NodeProcess & { metricsUrl: string })[];
  /** The database URL as the machine reaches it (for checks of what was written). */
  databaseUrl: string;
  stop: () => Promise<void>;
};

export type ClusterOptions = {
  apis: number;
  engines: number;
  /**
   * Settings of every API process and engine node (provider keys, fake providers' URLs, timings); a function
   * when they depend on the network, made before any node starts (a fake provider served on its bridge).
   */
  env: Record<string, string> | ((network: Network) => Promise<Record<string, string>>);
  pgBin: string;
  natsServerBin: string;
  /** NATS servers: 1 (default), or a cluster of 3 with every stream replicated on all three. */
  natsServers?: 1 | 3;
};

const READY_MS = 60_000;
/** Each engine node's operator port (its own host: the same number on every one). */
const ENGINE_METRICS_PORT = 9464;

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const network = await createNetwork();
  const dir = await mkdtemp(join(tmpdir(), `verdict-cluster-${network.prefix}-`));
  const started: ClusterProcess[] = [];
  try {
    const postgres = await startPostgres(network, dir, options.pgBin);
    started.push(postgres);
    const natsServers = await startNats(network, dir, options.natsServerBin, options.natsServers ?? 1);
    started.push(...natsServers);
    const natsHosts = natsServers.map((server) => server.host);
    const databaseUrl = `postgres://postgres@${postgres.host.ip}:5432/postgres`;
    // Each node reaches PostgreSQL and NATS through the link shaper on its own host (started first, it
    // outlives the node's kills and restarts): its connections still leave from the node's address.
    const settings = {
      ...(typeof options.env === 'function' ? await options.env(network) : options.env),
      DATABASE_URL: `postgres://postgres@127.0.0.1:${SHAPED_PORTS.postgres}/postgres`,
      NATS_URL: natsHosts.map((_, i) => `nats://127.0.0.1:${SHAPED_PORTS.nats + i}`).join(','),
      NATS_STREAM_REPLICAS: String(natsHosts.length),
      LOG_LEVEL: 'info',
    };
    const startShapedNode = async (name: string, entry: string, env: Record<string, string>) => {
      const host = await network.addHost(name);
      const shaper = await startShaper(host, postgres.host, natsHosts);
      started.push(shaper);
      const node = await startNode(host, name, entry, env);
      started.push(node);
      return { ...node, shape: shaper.shape };
    };
    const apis: Cluster['apis'] = [];
    for (let i = 1; i <= options.apis; i++) {
      const api = await startShapedNode(`api${i}`, 'apps/api/src/main.ts', {
        ...settings,
        HOST: '0.0.0.0',
        PORT: '3000',
      });
      apis.push({ ...api, baseUrl: `http://${api.host.ip}:3000` });
    }
    const engines: Cluster['engines'] = [];
    for (let i = 1; i <= options.engines; i++) {
      const engine = await startShapedNode(`eng${i}`, 'apps/engine/src/main.ts', {
        ...settings,
        HOST: '0.0.0.0',
        METRICS_PORT: String(ENGINE_METRICS_PORT),
      });
      engines.push({ ...engine, metricsUrl: `http://${engine.host.ip}:${ENGINE_METRICS_PORT}/metrics` });
    }
    return {
      network,
      postgres,
      nats: natsServers[0] as ClusterProcess,
      natsServers,
      apis,
      engines,
      databaseUrl,
      stop: async () => {
        for (const process of started.reverse()) await process.kill().catch(() => {});
        await network.teardown();
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    for (const process of started.reverse()) await process.kill().catch(() => {});
    await network.teardown();
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * A process on `host` made by `spawnIt`, ready once its output matches `ready`; restartable. A start that
 * exits saying what `transient` matches (a killed PostgreSQL's backends still holding its shared memory
 * for a moment) is tried again shortly, for up to READY_MS.
 */
async function supervised(
  name: string,
  host: Host,
  spawnIt: () => ChildProcess,
  ready: RegExp,
  transient?: RegExp,
): Promise<ClusterProcess> {
  let child: ChildProcess;
  let output = '';
  const start = async () => {
    const giveUpAt = Date.now() + READY_MS;
    for (;;) {
      const startedAt = output.length;
      try {
        return await startOnce();
      } catch (error) {
        const said = output.slice(startedAt);
        if (!transient?.test(said) || Date.now() > giveUpAt) throw error;
        await sleep(250);
      }
    }
  };
  const startOnce = async () => {
    child = spawnIt();
    const startedAt = output.length;
    const current = child;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        current.kill('SIGKILL');
        reject(new Error(`${name} was not ready in ${READY_MS} ms:\n${output.slice(startedAt)}`));
      }, READY_MS);
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (ready.test(output.slice(startedAt))) {
          clearTimeout(timer);
          resolve();
        }
      };
      current.stdout?.on('data', onData);
      current.stderr?.on('data', onData);
      current.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(
          new Error(`${name} exited (${code ?? signal}) before it was ready:\n${output.slice(startedAt)}`),
        );
      });
    });
  };
  await start();
  const kill = async () => {
    const current = child;
    if (current.exitCode !== null || current.signalCode !== null) return;
    const exited = once(current, 'exit');
    // A stopped process cannot die of SIGKILL until it runs again: continue it first.
    current.kill('SIGCONT');
    current.kill('SIGKILL');
    await exited;
  };
  return {
    name,
    host,
    child: () => child,
    output: () => output,
    kill,
    pause: () => child.kill('SIGSTOP'),
    resume: () => child.kill('SIGCONT'),
    restart: async () => {
      await kill();
      await start();
    },
  };
}

/**
 * A process of this repository on `host`. `ip netns exec` runs it directly (it execs, leaving no shell
 * between), so signals sent to the child reach the process itself.
 */
function startNode(host: Host, name: string, entry: string, env: Record<string, string>) {
  return supervised(
    name,
    host,
    () =>
      host.spawn(process.execPath, [entry], {
        cwd: ROOT,
        env: { ...compileCacheEnv(), PATH: process.env.PATH ?? '', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    entry.includes('engine') ? /engine node started/ : /listening at/,
  );
}

/**
 * Where a node's link shaper listens for each link, on the node's host's loopback: NATS's is the first
 * server's, the next ports the other servers' of a cluster (one route each, so NATS_URL lists them all).
 */
const SHAPED_PORTS = { postgres: 15432, nats: 14222 } as const;

/**
 * The link shaper (link-shaper.ts) on a node's `host`: 127.0.0.1:15432 to PostgreSQL, 127.0.0.1:14222 (and
 * up, one per server) to NATS. Its stdin stays open (it exits when the test process goes); `shape` writes a
 * command for each route of the link and waits for each answer.
 */
async function startShaper(host: Host, postgres: Host, nats: Host[]) {
  const shaper = await supervised(
    `${host.name}-shaper`,
    host,
    () =>
      host.spawn(
        process.execPath,
        [
          join(ROOT, 'infra/cluster/link-shaper.ts'),
          `${SHAPED_PORTS.postgres}=${postgres.ip}:5432`,
          ...nats.map((server, i) => `${SHAPED_PORTS.nats + i}=${server.ip}:4222`),
        ],
        {
          cwd: ROOT,
          env: { ...compileCacheEnv(), PATH: process.env.PATH ?? '' },
          stdio: ['pipe', 'pipe', 'pipe'],
        },
      ),
    /link-shaper ready/,
  );
  // One command at a time: each answer is the first line after the output seen when it was sent.
  let queue = Promise.resolve();
  const ports = { postgres: [SHAPED_PORTS.postgres], nats: nats.map((_, i) => SHAPED_PORTS.nats + i) };
  const shape = async (link: 'postgres' | 'nats', shaping: Shaping | null): Promise<void> => {
    for (const port of ports[link]) await shapeRoute(port, shaping);
  };
  const shapeRoute = (port: number, shaping: Shaping | null): Promise<void> => {
    const command = { port, ...(shaping ?? { delayMs: 0, jitterMs: 0, loss: 0 }) };
    const sent = queue.then(async () => {
      const from = shaper.output().length;
      shaper.child().stdin?.write(`${JSON.stringify(command)}\n`);
      const deadline = Date.now() + 10_000;
      for (;;) {
        const answer = /^(shaped|error) .*$/m.exec(shaper.output().slice(from));
        if (answer?.[1] === 'shaped') return;
        if (answer) throw new Error(`${shaper.name}: ${answer[0]}`);
        if (Date.now() > deadline)
          throw new Error(`${shaper.name} did not answer ${JSON.stringify(command)}`);
        await sleep(10);
      }
    });
    queue = sent.catch(() => {});
    return sent;
  };
  return { ...shaper, shape };
}

/** PostgreSQL on a host of its own: a fresh cluster, trusting the cluster's subnet (nothing else reaches it). */
async function startPostgres(network: Network, dir: string, pgBin: string): Promise<ClusterProcess> {
  const host = await network.addHost('pg');
  const data = join(dir, 'postgres');
  // initdb and postgres refuse to run as root: as root, they run as the Debian package's postgres user.
  // setpriv, not runuser: runuser forks and waits, so a SIGKILL would reach it and leave the postmaster
  // running; setpriv execs, so the process a kill -9 reaches is PostgreSQL itself.
  const asPostgres =
    process.getuid?.() === 0 ? ['setpriv', '--reuid=postgres', '--regid=postgres', '--init-groups'] : [];
  await chmod(dir, 0o755);
  if (asPostgres.length > 0) await chown(dir, ...postgresIds());
  const [initdbCommand, ...initdbArgs] = [
    ...asPostgres,
    join(pgBin, 'initdb'),
    '-D',
    data,
    '-U',
    'postgres',
    '--auth=trust',
  ];
  const initdb = host.spawn(initdbCommand as string, initdbArgs, { stdio: 'ignore' });
  const [code] = await once(initdb, 'exit');
  if (code !== 0) throw new Error(`initdb exited with ${code}`);
  const subnet = `${network.gatewayIp.replace(/\.1$/, '.0')}/24`;
  await writeFile(join(data, 'pg_hba.conf'), `host all all ${subnet} trust\nlocal all all trust\n`);
  const command = [...asPostgres, join(pgBin, 'postgres')];
  return supervised(
    'postgres',
    host,
    () =>
      host.spawn(
        command[0] as string,
        [
          ...command.slice(1),
          '-D',
          data,
          '-c',
          `listen_addresses=${host.ip}`,
          '-c',
          `unix_socket_directories=${dir}`,
          '-c',
          'max_connections=200',
          // Deadlocks are an invariant the runs check: each one is logged, with its statement.
          '-c',
          'log_lock_waits=on',
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      ),
    /database system is ready to accept connections/,
    // After a kill -9, the old backends notice their postmaster is gone and exit, but not at once.
    /pre-existing shared memory block .* is still in use|lock file "postmaster.pid" already exists/,
  );
}

function postgresIds(): [number, number] {
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
  return [uid, gid];
}

/**
 * NATS with JetStream, each server on a host of its own (`nats`, or `nats1`…`nats3` in a cluster), its store
 * in the run's folder (kept across its restarts). A cluster is ready once its servers agree on a JetStream
 * meta leader: streams can be placed.
 */
async function startNats(
  network: Network,
  dir: string,
  natsServerBin: string,
  count: number,
): Promise<ClusterProcess[]> {
  const hosts: Host[] = [];
  for (let i = 1; i <= count; i++) hosts.push(await network.addHost(count === 1 ? 'nats' : `nats${i}`));
  const servers: ClusterProcess[] = [];
  try {
    for (const host of hosts) {
      const args = await natsServerArgs(host, hosts, dir);
      servers.push(
        await supervised(
          host.name,
          host,
          () => host.spawn(natsServerBin, args, { stdio: ['ignore', 'pipe', 'pipe'] }),
          /Server is ready/,
        ),
      );
    }
    if (count > 1) await agreedMetaLeader(hosts);
    return servers;
  } catch (error) {
    for (const server of servers) await server.kill().catch(() => {});
    throw error;
  }
}

/** Node's compile cache of the test run (infra/test.sh), when it has one: a node's start then compiles little. */
const compileCacheEnv = (): Record<string, string> =>
  process.env.NODE_COMPILE_CACHE ? { NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE } : {};
