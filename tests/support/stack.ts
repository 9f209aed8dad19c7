import {
  createTestCore,
  type TestCore,
  testDatabaseUrl,
  testNatsUrl,
  uniqueSchema,
} from '@verdict/core/testing';
import { apiClient, registerUser } from './api-client.ts';
import { type RunningEngine, type RunningProcess, startApi, startEngine } from './processes.ts';

/** The API and an engine node as separate processes on their own schema and NATS prefix, and a core on them. */
export type Stack = {
  api: RunningProcess;
  engine: RunningEngine;
  /** A core on the same schema, for what the API does not offer (plans, credits) and for cleaning up. */
  db: TestCore;
  /** The settings the processes got: what another process of the stack (a second engine node) starts with. */
  env: Record<string, string>;
  stop: () => Promise<void>;
};

/** Starts a stack labelled `label` (its schema and prefix); `env` adds to or overrides its settings. */
export async function startStack(label: string, env: Record<string, string> = {}): Promise<Stack> {
  const settings = {
    DATABASE_URL: testDatabaseUrl(),
    DATABASE_SCHEMA: uniqueSchema(label),
    NATS_URL: testNatsUrl(),
    NATS_PREFIX: `${uniqueSchema(label)}.`,
    SIMULATED_FIRST_TOKEN_MS: '20',
    CONCURRENT_DEBATES: '20',
    // The processes announce readiness at info.
    LOG_LEVEL: 'info',
    ...env,
  };
  const api = await startApi(settings);
  const engine = await startEngine(settings);
  const db = await createTestCore(settings);
  return {
    api,
    engine,
    db,
    env: settings,
    stop: async () => {
      await engine.stop();
      await api.stop();
      await (db.core.bus as { deleteStreams?: () => Promise<void> }).deleteStreams?.();
      await db.cleanup();
    },
  };
}

/** A signed-up user on the pro plan with 50 credits, and a client on its session cookie. */
export async function signUpPro(stack: Stack, label: string) {
  const user = await registerUser(stack.api.baseUrl, label);
  await stack.db.core.accounts.setPlan(user.userId, 'pro');
  await stack.db.core.billing.grantCredits(user.userId, 50);
  return {
    cookie: user.cookie,
    userId: user.userId,
    client: apiClient(stack.api.baseUrl, { cookie: user.cookie }),
  };
}

export type ProUser = Awaited<ReturnType<typeof signUpPro>>;
