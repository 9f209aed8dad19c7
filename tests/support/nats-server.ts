import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type NatsBus, type NatsBusOptions, natsBus } from '@verdict/core';
import { uniqueSchema } from '@verdict/core/testing';

const NATS_SERVER = process.env.NATS_SERVER_BIN ?? '/usr/sbin/nats-server';

/** A TCP port nobody listens on right now (the kernel's pick, released at once). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export type PrivateNatsServer = {
  /** nats://127.0.0.1:<port>, the same across restarts. */
  url: string;
  port: number;
  /** The JetStream store directory, kept across restarts. */
  storeDir: string;
  /** Stops the server (SIGKILL for a crash); resolves once the process is gone. */
  stop: (signal?: NodeJS.Signals) => Promise<void>;
  /**
   * Starts it again on the same port and store directory; resolves once it is ready. `jetstream: false`
   * brings it back without JetStream: a server whose streams are still recovering, as clients see it.
   */
  start: (options?: { jetstream?: boolean }) => Promise<void>;
  /** Freezes the server (SIGSTOP): its connections stay open and go silent, as a vanished host's do. */
  pause: () => void;
  /** Lets a paused server run again (SIGCONT). */
  resume: () => void;
  /** Everything the server logged, across restarts. */
  output: () => string;
  /** Stops the server and removes its store directory. */
  close: () => Promise<void>;
};

/**
 * A nats-server of the test's own, with JetStream on a store directory in a temp dir and a free loopback
 * port: a test can kill and restart it without disturbing the shared NATS other test files use.
 */
export async function startNatsServer(timeoutMs = 15_000): Promise<PrivateNatsServer> {
  const storeDir = await mkdtemp(join(tmpdir(), 'verdict-nats-'));
  const port = await freePort();
  let child: ChildProcess | null = null;
  let output = '';

  const start = async ({ jetstream = true }: { jetstream?: boolean } = {}) => {
    if (child) throw new Error('the private nats-server is already running');
    const args = [...(jetstream ? ['-js', '-sd', storeDir] : []), '-a', '127.0.0.1', '-p', String(port)];
    const proc = spawn(NATS_SERVER, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = proc;
    const started = output.length;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        proc.kill('SIGKILL');
        reject(new Error(`nats-server did not start in ${timeoutMs} ms:\n${output.slice(started)}`));
      }, timeoutMs);
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.slice(started).includes('Server is ready')) {
          clearTimeout(timer);
          resolve();
        }
      };
      proc.stdout?.on('data', onData);
      proc.stderr?.on('data', onData);
      proc.once('exit', (code, signal) => {
        clearTimeout(timer);
        if (child === proc) child = null;
        reject(
          new Error(`nats-server exited (${code ?? signal}) before it was ready:\n${output.slice(started)}`),
        );
      });
    });
  };

  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    const proc = child;
    if (!proc) return;
    child = null;
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = once(proc, 'exit');
    proc.kill(signal);
    await exited;
  };

  await start();
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    storeDir,
    stop,
    start,
    pause: () => child?.kill('SIGSTOP'),
    resume: () => child?.kill('SIGCONT'),
    output: () => output,
    close: async () => {
      await stop('SIGKILL');
      await rm(storeDir, { recursive: true, force: true });
    },
  };
}

/** A private NATS server and a bus on it, for tests that take the server away from the bus. */
export type BusOnPrivateNats = {
  nats: PrivateNatsServer;
  bus: NatsBus;
  /** Resumes the server if paused, removes the bus's streams, closes the bus, and removes the server. */
  close: () => Promise<void>;
};

/** Starts a NATS server of the test's own and a bus on it, under a prefix named after `label`. */
export async function busOnPrivateNats(
  label: string,
  options: Omit<NatsBusOptions, 'servers' | 'prefix'> = {},
): Promise<BusOnPrivateNats> {
  const nats = await startNatsServer();
  try {
    const bus = await natsBus({ servers: [nats.url], prefix: `${uniqueSchema(label)}.`, ...options });
    return {
      nats,
      bus,
      close: async () => {
        nats.resume();
        await bus.deleteStreams().catch(() => {});
        await bus.close().catch(() => {});
        await nats.close();
      },
    };
  } catch (err) {
    await nats.close();
    throw err;
  }
}
