import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout } from 'node:timers/promises';
import type { Plan } from '@verdict/contracts';
import {
  createTestCore,
  type TestCore,
  testDatabaseUrl,
  testNatsUrl,
  uniqueSchema,
} from '@verdict/core/testing';
import { apiClient, registerUser } from './api-client.ts';
import { freePort } from './nats-server.ts';
import { type RunningEngine, type RunningProcess, runAdmin, startApi, startEngine } from './processes.ts';

/**
 * The two ways the service runs, both first-class: `distributed` is an API process and an engine process
 * on PostgreSQL and NATS; `embedded` is what `npm start` runs with nothing configured, one process on
 * PGlite in a DATA_DIR of its own with the in-process bus and engine.
 */
export type StackMode = 'distributed' | 'embedded';

/** Every mode, for `describe.each(MODES)`: a suite that can runs on each. */
export const MODES: StackMode[] = ['distributed', 'embedded'];

/**
 * A running service, driven from outside as its users and operator do: over HTTP, and set up with the
 * operator command (`npm run admin`), which both modes offer. Nothing else can open the embedded
 * database while its server holds DATA_DIR, so a suite that runs in both modes has no core of its own.
 */
export type Stack = {
  mode: StackMode;
  /** The API's address. A restart changes it (the port is picked at start): make clients after one. */
  readonly baseUrl: string;
  /** The API process (in embedded mode, the whole service). */
  readonly api: RunningProcess;
  /**
   * Runs `npm run admin -- …args` on the stack's database (on PostgreSQL directly; in embedded mode over
   * the running server's admin channel) and resolves with what it printed; rejects if it fails.
   */
  admin: (...args: string[]) => Promise<string>;
  setPlan: (email: string, plan: Plan) => Promise<void>;
  grantCredits: (email: string, amount: number) => Promise<void>;
  /** The account's own rate limit (requests per minute). */
  setRateLimit: (email: string, perMinute: number) => Promise<void>;
  /**
   * Stops the API process (SIGTERM) and starts it again on the same data, on a new port unless `samePort`
   * (what a page that is open across the restart needs: its origin is the old address), `downMs` after it
   * exited (a restart as slow as a loaded machine's or a deploy's).
   */
  restartApi: (options?: RestartOptions) => Promise<void>;
  stop: () => Promise<void>;
};

export type RestartOptions = { samePort?: boolean; downMs?: number };

/** A distributed stack, for what needs its processes apart: its engine node, settings and database. */
export type DistributedStack = Stack & {
  engine: RunningEngine;
  /** A core on the same schema, for what no route or command offers (moving a clock) and for cleaning up. */
  db: TestCore;
  /** The settings the processes got: what another process of the stack (a second engine node) starts with. */
  env: Record<string, string>;
};

/**
 * The HTTP server of each mode's API (STREAMS): uWebSockets.js for the embedded default, Node's http for
 * distributed mode, so every suite runs on both (here uWebSockets.js through the newer C library the API
 * prepares). tests/stream-transports.test.ts runs the stream checks on each server in each mode.
 */
export const STREAMS_OF: Record<StackMode, 'uws' | 'node'> = { embedded: 'uws', distributed: 'node' };

/** Settings every stack starts with; `env` adds to or overrides them. */
const COMMON = {
  SIMULATED_FIRST_TOKEN_MS: '20',
  CONCURRENT_DEBATES: '20',
  // The processes announce readiness at info.
  LOG_LEVEL: 'info',
};

/**
 * An address for a stack to start on, known before it starts: the settings that put it there (PORT) and
 * make it the address of its links and redirects (PUBLIC_BASE_URL, and so APP_URL), for what must be told
 * it beforehand, as an identity provider is told its redirect URI. Without them the stack's links are on
 * http://localhost:<port> while its clients use http://127.0.0.1:<port>: another host to a browser, whose
 * cookies do not follow.
 */
export async function stackAddress(): Promise<{ baseUrl: string; env: Record<string, string> }> {
  const port = String(await freePort());
  const baseUrl = `http://127.0.0.1:${port}`;
  return { baseUrl, env: { PORT: port, PUBLIC_BASE_URL: baseUrl } };
}

/** Starts a stack of `mode` labelled `label` (its schema and prefix, or its DATA_DIR). */
export function startStack(mode: StackMode, label: string, env: Record<string, string> = {}): Promise<Stack> {
  return mode === 'distributed' ? startDistributedStack(label, env) : startEmbeddedStack(label, env);
}

export async function startDistributedStack(
  label: string,
  env: Record<string, string> = {},
): Promise<DistributedStack> {
  const settings = {
    DATABASE_URL: testDatabaseUrl(),
    DATABASE_SCHEMA: uniqueSchema(label),
    NATS_URL: testNatsUrl(),
    NATS_PREFIX: `${uniqueSchema(label)}.`,
    STREAMS: STREAMS_OF.distributed,
    ...COMMON,
    ...env,
  };
  let api = await startApi(settings);
  const engine = await startEngine(settings);
  const db = await createTestCore(settings);
  return {
    mode: 'distributed',
    get baseUrl() {
      return api.baseUrl;
    },
    get api() {
      return api;
    },
    ...operatorCommands({ DATABASE_URL: settings.DATABASE_URL, DATABASE_SCHEMA: settings.DATABASE_SCHEMA }),
    restartApi: async (options) => {
      api = await restarted(api, settings, options);
    },
    engine,
    db,
    env: settings,
    // Each step runs even if one before failed (a process that had to be killed): nothing is left behind.
    stop: () =>
      inOrder([
        () => engine.stop(),
        () => api.stop(),
        async () => (db.core.bus as { deleteStreams?: () => Promise<void> }).deleteStreams?.(),
        () => db.cleanup(),
      ]),
  };
}

async function startEmbeddedStack(label: string, env: Record<string, string>): Promise<Stack> {
  const dataDir = await mkdtemp(join(tmpdir(), `verdict-${label}-`));
  const settings = { DATA_DIR: dataDir, STREAMS: STREAMS_OF.embedded, ...COMMON, ...env };
  let api: RunningProcess;
  try {
    api = await startApi(settings);
  } catch (err) {
    await rm(dataDir, { recursive: true, force: true });
    throw err;
  }
  return {
    mode: 'embedded',
    get baseUrl() {
      return api.baseUrl;
    },
    get api() {
      return api;
    },
    ...operatorCommands({ DATA_DIR: dataDir }),
    restartApi: async (options) => {
      api = await restarted(api, settings, options);
    },
    stop: () => inOrder([() => api.stop(), () => rm(dataDir, { recursive: true, force: true })]),
  };
}

const portOf = (api: RunningProcess) => new URL(api.baseUrl).port;

async function restarted(
  api: RunningProcess,
  settings: Record<string, string>,
  options: RestartOptions = {},
) {
  await api.stop();
  if (options.downMs) await setTimeout(options.downMs);
  return startApi(options.samePort ? { ...settings, PORT: portOf(api) } : settings);
}

/** Runs every step, one after the other, whatever fails; then fails with the first failure, if any. */
async function inOrder(steps: (() => Promise<unknown>)[]) {
  const failures: unknown[] = [];
  for (const step of steps) {
    try {
      await step();
    } catch (err) {
      failures.push(err);
    }
  }
  if (failures.length > 0) throw failures[0];
}

/** The operator command on the database `env` names, as an operator of that deployment runs it. */
function operatorCommands(env: Record<string, string>) {
  const admin = async (...args: string[]) => {
    const { code, stdout, stderr } = await runAdmin(args, env);
    if (code !== 0) throw new Error(`npm run admin -- ${args.join(' ')} exited with ${code}: ${stderr}`);
    return stdout;
  };
  return {
    admin,
    setPlan: async (email: string, plan: Plan) => {
      await admin('set-plan', '--email', email, '--plan', plan);
    },
    grantCredits: async (email: string, amount: number) => {
      await admin('grant-credits', '--email', email, '--amount', String(amount));
    },
    setRateLimit: async (email: string, perMinute: number) => {
      await admin('set-rate-limit', '--email', email, '--per-minute', String(perMinute));
    },
  };
}

/**
 * A user signed up over HTTP, put on the pro plan (or `plan`) with 50 credits more by the operator
 * command, and a client on its session cookie.
 */
export async function signUpPro(stack: Stack, label: string, plan: Plan = 'pro') {
  const user = await registerUser(stack.baseUrl, label);
  await Promise.all([stack.setPlan(user.email, plan), stack.grantCredits(user.email, 50)]);
  return {
    cookie: user.cookie,
    userId: user.userId,
    email: user.email,
    client: apiClient(stack.baseUrl, { cookie: user.cookie }),
  };
}

export type ProUser = Awaited<ReturnType<typeof signUpPro>>;
