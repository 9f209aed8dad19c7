import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './nats-server.ts';

const NATS_SERVER = process.env.NATS_SERVER_BIN ?? '/usr/sbin/nats-server';

export type LoopbackNatsCluster = {
  /** Each server's client URL, nats://127.0.0.1:<port>. */
  urls: string[];
  name: string;
  /** SIGKILLs the server of that name (`<name>-n<i>`, as its INFO and JetStream's reports call it). */
  kill: (serverName: string) => Promise<void>;
  close: () => Promise<void>;
};

/**
 * A NATS cluster of the test's own on loopback: `size` servers with JetStream, each with its own ports and
 * store directory, routes to one another; resolves once JetStream's meta group has a leader (streams can be
 * placed). The servers do not advertise one another to clients: a client uses the URLs it was given.
 */
export async function startLoopbackNatsCluster(size: number): Promise<LoopbackNatsCluster> {
  const dir = await mkdtemp(join(tmpdir(), 'verdict-nats-cluster-'));
  const name = `c${Math.floor(Math.random() * 1e6)}`;
  const ports = await Promise.all(
    Array.from({ length: size }, async () => ({
      client: await freePort(),
      route: await freePort(),
      monitor: await freePort(),
    })),
  );
  const routes = ports.map((port) => `nats-route://127.0.0.1:${port.route}`).join(', ');
  const children: ChildProcess[] = [];
  const killChild = async (child: ChildProcess | undefined) => {
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  };
  const close = async () => {
    for (const child of children) await killChild(child);
    await rm(dir, { recursive: true, force: true });
  };
  const kill = (serverName: string) => killChild(children[Number(serverName.split('-n').at(-1)) - 1]);
  try {
    for (const [i, port] of ports.entries()) {
      const config = join(dir, `n${i + 1}.conf`);
      await writeFile(
        config,
        [
          `server_name: ${name}-n${i + 1}`,
          `listen: 127.0.0.1:${port.client}`,
          `http: 127.0.0.1:${port.monitor}`,
          `jetstream { store_dir: "${join(dir, `n${i + 1}`)}" }`,
          `cluster { name: ${name}, listen: 127.0.0.1:${port.route}, no_advertise: true, routes: [${routes}] }`,
        ].join('\n'),
      );
      children.push(spawn(NATS_SERVER, ['-c', config], { stdio: 'ignore' }));
    }
    await metaLeaderElected(ports[0]?.monitor ?? 0);
  } catch (error) {
    await close();
    throw error;
  }
  return { urls: ports.map((port) => `nats://127.0.0.1:${port.client}`), name, kill, close };
}

/** Waits (up to 20 s) until the server's monitor names a JetStream meta leader. */
async function metaLeaderElected(monitorPort: number) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const jsz = await fetch(`http://127.0.0.1:${monitorPort}/jsz`)
      .then((res) => res.json() as Promise<{ meta_cluster?: { leader?: string } }>)
      .catch(() => null);
    if (jsz?.meta_cluster?.leader) return;
    if (Date.now() > deadline) throw new Error('the loopback NATS cluster elected no meta leader in 20 s');
    await sleep(100);
  }
}
