import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';

export type SpawnedServer<Info> = {
  /** The JSON object the server printed on its first stdout line once listening. */
  info: Info;
  child: ChildProcess;
  /** Asks the server to shut down (it drops what it created) and waits for it to exit. */
  stop: () => Promise<void>;
};

/** A command that starts node, and the arguments that come before node's own flags and the script. */
export type NodeCommand = { command: string; args: string[] };

export type SpawnOptions = {
  /** Added to the parent's environment, after `unset` is applied. */
  env?: Record<string, string>;
  /** Parent variables the child must not see (e.g. DATABASE_URL for an embedded server). */
  unset?: string[];
  /** Node flags for the child, e.g. ['--cpu-prof', '--cpu-prof-dir=/tmp/x']. */
  execArgv?: string[];
  /**
   * How to start node: by default this process's binary. `nodeCommandForUws()` (@verdict/api) gives the
   * command that loads uWebSockets.js on a C library too old for it (a newer one's loader running node in
   * the same process, so the IPC channel survives).
   */
  node?: NodeCommand;
  readyTimeoutMs?: number;
  stopTimeoutMs?: number;
};

/**
 * Starts `script` in its own Node process (the same Node 24 binary as this one, unless `node` says how), so the load generator
 * and the server under test never share an event loop. The server reports readiness by printing one JSON
 * line on stdout; it shuts down when the IPC channel closes, which also happens if this process dies.
 */
export async function spawnServer<Info>(
  script: string,
  options: SpawnOptions = {},
): Promise<SpawnedServer<Info>> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of options.unset ?? []) delete env[name];
  Object.assign(env, options.env);
  const node = options.node ?? { command: process.execPath, args: [] };
  const child = spawn(node.command, [...node.args, ...(options.execArgv ?? []), script], {
    env,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-8000);
  });
  const exited = once(child, 'exit');

  const info = await new Promise<Info>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} not ready after ${options.readyTimeoutMs ?? 60_000} ms\n${stderr}`));
    }, options.readyTimeoutMs ?? 60_000);
    lines.on('line', (line) => {
      if (!line.startsWith('{')) return;
      clearTimeout(timer);
      try {
        resolve(JSON.parse(line) as Info);
      } catch (err) {
        reject(err);
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited before it was ready (code ${code}, signal ${signal})\n${stderr}`));
    });
  });

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const timer = setTimeout(() => child.kill('SIGKILL'), options.stopTimeoutMs ?? 15_000);
    if (child.connected) child.disconnect();
    else child.kill('SIGTERM');
    const [code] = await exited;
    clearTimeout(timer);
    if (code !== 0) throw new Error(`${script} exited with code ${code} on stop\n${stderr}`);
  };
  return { info, child, stop };
}

/** Runs `shutdown` once, when the parent closes the IPC channel or sends SIGTERM/SIGINT. */
export function onStopRequest(shutdown: () => Promise<void>): void {
  let stopping = false;
  const run = () => {
    if (stopping) return;
    stopping = true;
    shutdown().then(
      () => process.exit(0),
      (err) => {
        process.stderr.write(`shutdown failed: ${err instanceof Error ? err.stack : String(err)}\n`);
        process.exit(1);
      },
    );
  };
  process.once('disconnect', run);
  process.once('SIGTERM', run);
  process.once('SIGINT', run);
}

/**
 * The tail every bench server shares: listen on a free loopback port, print the ready line (with the
 * port) on stdout, and on a stop request close the server and run `release`. A failed listen releases too.
 */
export async function listenAndReport(
  app: {
    listen: (o: { port: number; host: string }) => Promise<unknown>;
    server: { address: () => unknown };
    close: () => Promise<unknown>;
  },
  release: () => Promise<void>,
  ready: (port: number) => Record<string, unknown>,
): Promise<void> {
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address() as { port?: number } | string | null;
    if (!address || typeof address === 'string' || address.port === undefined)
      throw new Error('no TCP address');
    onStopRequest(async () => {
      await app.close();
      await release();
    });
    process.stdout.write(`${JSON.stringify(ready(address.port))}\n`);
  } catch (err) {
    await app.close().catch(() => {});
    await release();
    throw err;
  }
}
