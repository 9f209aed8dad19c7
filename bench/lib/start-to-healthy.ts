import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';

/** What `npm start` runs (package.json). */
const START = join(import.meta.dirname, '..', '..', 'apps', 'api', 'src', 'start.ts');

/** A port nobody listens on right now (the kernel's pick); the child binds it a moment later. */
async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/**
 * CPU time (user + system, all threads) the process has used, from /proc (Linux; USER_HZ is 100 there, so
 * 10 ms steps); null elsewhere.
 */
async function cpuMsOf(pid: number): Promise<number | null> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

export type StartTime = {
  /** Wall-clock milliseconds from spawn to the first 200: what a user waits, and what load inflates. */
  ms: number;
  /** CPU the server process spent to get there: barely moved by other work on the machine. */
  cpuMs: number | null;
};

/**
 * Spawns what `npm start` runs (apps/api/src/start.ts on this Node) with only `env` plus PATH and HOME, as
 * a user's shell would, polls GET /health every 20 ms and measures the time to the first 200. The process
 * is then stopped with SIGTERM, which must end it cleanly.
 */
export async function timeToHealthy(env: Record<string, string>, timeoutMs = 120_000): Promise<StartTime> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [START], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      LOG_LEVEL: 'info',
      ...env,
      PORT: `${port}`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = once(child, 'exit');
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}:\n${output}`);
      if (performance.now() - started > timeoutMs)
        throw new Error(`not healthy after ${timeoutMs} ms:\n${output}`);
      const ok = await fetch(`http://127.0.0.1:${port}/health`).then(
        (res) => res.status === 200,
        () => false,
      );
      if (ok) return { ms: performance.now() - started, cpuMs: await cpuMsOf(child.pid ?? 0) };
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    if (child.exitCode === null) child.kill('SIGTERM');
    const [code, signal] = await exited;
    if (code !== 0 && signal !== 'SIGTERM')
      process.stderr.write(`bench: server stopped with ${code ?? signal}\n${output}\n`);
  }
}
