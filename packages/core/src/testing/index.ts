import { randomBytes } from 'node:crypto';
import { type Config, loadConfig } from '../config/config.ts';
import { type Core, type CoreOptions, createCore } from '../core.ts';
import { createEngineNode, type EngineNode } from '../engine/engine-node.ts';
import type { SimulatedOptions } from '../engine/llm/simulated.ts';

/** PostgreSQL the tests use: the machine's own server unless TEST_DATABASE_URL says otherwise. */
export const TEST_DATABASE_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const TEST_NATS_URL = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

/** A schema name no other test file uses. */
export const uniqueSchema = (label = 't') => `${label}_${randomBytes(6).toString('hex')}`;

export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    DATABASE_URL: TEST_DATABASE_URL,
    DATABASE_SCHEMA: uniqueSchema(),
    LOG_LEVEL: 'silent',
    // Every test registers its users from 127.0.0.1; the sign-up limit has a test of its own.
    REGISTER_LIMIT_PER_HOUR: '100000',
    ...env,
  });
}

export type TestCore = { core: Core; schema: string; cleanup: () => Promise<void> };

/**
 * A Core on the real PostgreSQL, isolated in a fresh schema that `cleanup` drops. Pass the same
 * DATABASE_SCHEMA to a second createTestCore to get a second "process" on the same data.
 */
export async function createTestCore(
  env: Record<string, string> = {},
  options: CoreOptions = {},
): Promise<TestCore> {
  const config = testConfig(env);
  if (config.database.kind !== 'postgres') throw new Error('test cores run on PostgreSQL');
  const schema = config.database.schema;
  const core = await createCore(config, options);
  return {
    core,
    schema,
    cleanup: async () => {
      await core.db.execute(`drop schema if exists "${schema}" cascade`);
      await core.close();
    },
  };
}
export { type DebaterTurnRef, debaterTurnOf, turnRefKey } from './debater-requests.ts';
export {
  DEFAULT_FAKE_REPLY_TEXT,
  type FakeLlmServer,
  type FakeOutcome,
  type FakeProtocol,
  type FakeReply,
  type FakeRequest,
  type FakeRequestRecord,
  type FakeScript,
  startFakeLlmServer,
} from './fake-llm-server.ts';

/** Polls `read` until `done` holds, for tests that wait on another process or a background loop. */
export async function eventually<T>(
  read: () => Promise<T> | T,
  done: (value: T) => boolean,
  ms = 15_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`not reached in ${ms} ms; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * An engine node on a test core's own database and bus, on the simulated provider with short timeouts.
 * Stop it before the core closes.
 */
export function startTestEngine(core: Core, simulated: SimulatedOptions = {}, slots = 8): EngineNode {
  const node = createEngineNode({
    db: core.db,
    bus: core.bus,
    clock: core.clock,
    slots,
    providerKeys: {},
    simulated,
    policy: { timeoutMs: 2000, retries: 1, backoffMs: 10 },
  });
  node.start();
  return node;
}

/** Resolves with the debate row once its status is one of `statuses` (default: finished). */
export function debateReaching(core: Core, id: string, statuses: string[] = ['completed', 'failed']) {
  return eventually(
    () => core.debates.find(id),
    (debate) => debate !== null && statuses.includes(debate.status),
  );
}
