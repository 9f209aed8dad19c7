import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/**
 * The production engine process (apps/engine/src/main.ts: loadConfig + createCore + engineNodeFor, pino
 * logs as JSON lines on stdout) started as a child on the same Node 24 binary, configured only through its
 * environment, as a deployment would run it. Used by bench/suites/scale.ts to kill nodes and to run
 * several at once. Nothing bench-only runs inside it.
 */

const MAIN = join(import.meta.dirname, '..', '..', 'apps', 'engine', 'src', 'main.ts');

/** What the process must never see: another deployment's settings or any real provider's key or URL. */
const UNSET =
  /^(DATABASE_|NATS_|DATA_DIR$|PORT$|HOST$|ENGINE_|JOB_ACK_WAIT_MS$|SIMULATED_|LOG_LEVEL$|.*_API_KEY$|.*_BASE_URL$)/;

export type EngineProcessOptions = {
  databaseUrl: string;
  schema: string;
  natsUrl: string;
  /** NATS_PREFIX of the deployment (ends with a dot). */
  prefix: string;
  slots: number;
  firstTokenMs: number;
  tokensPerSecond?: number;
  /** Anything else of packages/core/src/config/config.ts, e.g. JOB_ACK_WAIT_MS (default: the config's). */
  env?: Record<string, string>;
  /** Used in error messages only. */
  label: string;
};

export type EngineProcess = {
  label: string;
  pid: number;
  /** Epoch ms (performance.timeOrigin + now) of the spawn and of the "engine node started" log line. */
  spawnedAt: number;
  startedAt: number;
  /** Log lines by message, with ids and numbers replaced by '…' ("debate …: completed": 120). */
  messages: Map<string, number>;
  /** The last lines of stderr and of non-JSON stdout, for errors. */
  tail: () => string;
  exited: boolean;
  /** SIGKILL now; resolves once the process is gone. */
  kill: () => Promise<void>;
  /** SIGTERM (the node hands its running debates back to the queue) and wait; SIGKILL after `timeoutMs`. */
  stop: (timeoutMs?: number) => Promise<void>;
};

const now = () => performance.timeOrigin + performance.now();
/** "debate 4f0c…-…: completed" → "debate …: completed": one bucket per kind of message. */
const bucket = (msg: string) => msg.replace(/[0-9a-f]{8}-[0-9a-f-]{27}|\b\d+\b/g, '…');

export async function startEngineProcess(options: EngineProcessOptions): Promise<EngineProcess> {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!UNSET.test(name)) env[name] = value;
  Object.assign(env, {
    DATABASE_URL: options.databaseUrl,
    DATABASE_SCHEMA: options.schema,
    NATS_URL: options.natsUrl,
    NATS_PREFIX: options.prefix,
    ENGINE_SLOTS: String(options.slots),
    SIMULATED_FIRST_TOKEN_MS: String(options.firstTokenMs),
    SIMULATED_TOKENS_PER_SECOND: String(options.tokensPerSecond ?? 0),
    LOG_LEVEL: 'info',
    ...options.env,
  });
  const spawnedAt = now();
  const child: ChildProcess = spawn(process.execPath, [MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exit = once(child, 'exit');
  let tail = '';
  const keep = (text: string) => {
    tail = (tail + text).slice(-4000);
  };
  child.stderr?.on('data', (chunk: Buffer) => keep(chunk.toString()));
  const messages = new Map<string, number>();
  let onStarted: (line: { msg: string }) => void = () => {};
  createInterface({ input: child.stdout! }).on('line', (line) => {
    let parsed: { msg?: unknown; level?: unknown; err?: { message?: string } };
    try {
      parsed = JSON.parse(line);
    } catch {
      keep(`${line}\n`);
      return;
    }
    const msg = String(parsed.msg ?? '');
    const key = bucket(msg);
    messages.set(key, (messages.get(key) ?? 0) + 1);
    if (Number(parsed.level) >= 50) keep(`${msg} ${parsed.err?.message ?? ''}\n`);
    if (msg.startsWith('engine node started')) onStarted({ msg });
  });

  const started = await new Promise<{ msg: string }>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`engine ${options.label} not started after 60 s\n${tail}`));
    }, 60_000);
    onStarted = (line) => {
      clearTimeout(timer);
      resolve(line);
    };
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`engine ${options.label} exited before it started (${signal ?? code})\n${tail}`));
    });
  });
  const startedAt = now();
  if (!started.msg.includes('SIMULATED')) {
    child.kill('SIGKILL');
    throw new Error(`engine ${options.label} did not start on the simulated provider: ${started.msg}`);
  }

  const handle: EngineProcess = {
    label: options.label,
    pid: child.pid ?? 0,
    spawnedAt,
    startedAt,
    messages,
    tail: () => tail,
    exited: false,
    kill: async () => {
      if (handle.exited) return;
      child.kill('SIGKILL');
      await exit;
    },
    stop: async (timeoutMs = 20_000) => {
      if (handle.exited) return;
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      child.kill('SIGTERM');
      await exit;
      clearTimeout(timer);
    },
  };
  void exit.then(() => {
    handle.exited = true;
  });
  return handle;
}

/** The lease_owner prefix of a node in process `pid` (engine-node.ts: `${hostname()}:${pid}:<random>`). */
export const leaseOwnerPattern = (pid: number) => `%:${pid}:%`;
