import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

/** The API process in embedded mode on a DATA_DIR of its own, as `npm run start:api` runs it. */
export type EmbeddedApi = {
  baseUrl: string;
  /** `npm run admin -- …args` against this server's database (over its admin channel). */
  admin: (...args: string[]) => Promise<void>;
  stop: () => Promise<void>;
};

export async function startEmbeddedApi(env: Record<string, string> = {}): Promise<EmbeddedApi> {
  const dataDir = await mkdtemp(join(tmpdir(), 'verdict-bench-console-'));
  const settings = { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, LOG_LEVEL: 'info', ...env };
  const child = spawn(process.execPath, ['apps/api/src/main.ts'], {
    cwd: ROOT,
    env: { ...settings, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let baseUrl: string;
  try {
    baseUrl = await listeningAddress(child);
  } catch (err) {
    child.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
    throw err;
  }
  return {
    baseUrl,
    admin: async (...args) => {
      const admin = spawn(process.execPath, ['apps/api/src/admin.ts', ...args], {
        cwd: ROOT,
        env: settings,
        stdio: 'ignore',
      });
      const [code] = (await once(admin, 'exit')) as [number];
      if (code !== 0) throw new Error(`npm run admin -- ${args.join(' ')} exited with ${code}`);
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = once(child, 'exit');
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

function listeningAddress(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`the API did not start in 120 s:\n${output}`)), 120_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const found = /listening at (http:\/\/[\d.:]+)/.exec(output);
      if (found?.[1]) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the API exited with ${code} before it was ready:\n${output}`));
    });
  });
}
