import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import {
  createTestCore,
  type TestCore,
  testDatabaseUrl,
  testNatsUrl,
  uniqueSchema,
} from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, registerUser } from './support/api-client.ts';
import { runCli } from './support/cli.ts';
import { ROOT } from './support/packages.ts';
import { type RunningEngine, type RunningProcess, startApi, startEngine } from './support/processes.ts';

const run = promisify(execFile);

// The clients against the distributed mode: API and engine node as processes on PostgreSQL and NATS.
describe('the SDK and CLI against the distributed mode', () => {
  const env = {
    DATABASE_URL: testDatabaseUrl(),
    DATABASE_SCHEMA: uniqueSchema('clients'),
    NATS_URL: testNatsUrl(),
    NATS_PREFIX: `${uniqueSchema('clients')}.`,
    SIMULATED_FIRST_TOKEN_MS: '20',
    LOG_LEVEL: 'warn',
  };
  let api: RunningProcess;
  let engine: RunningEngine;
  let db: TestCore;

  beforeAll(async () => {
    api = await startApi({ ...env, LOG_LEVEL: 'info' });
    engine = await startEngine({ ...env, LOG_LEVEL: 'info' });
    db = await createTestCore(env);
  });
  afterAll(async () => {
    await engine?.stop();
    await api?.stop();
    await (db?.core.bus as { deleteStreams?: () => Promise<void> } | undefined)?.deleteStreams?.();
    await db?.cleanup();
  });

  it('runs the SDK consumer: sign-up, key, debate streamed to the verdict, tRPC, outcome, score', async () => {
    const { stdout } = await run(
      process.execPath,
      ['--conditions=verdict-source', 'tests/clients/consumer.ts', api.baseUrl],
      { cwd: ROOT },
    );
    const steps = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { step: string; [field: string]: unknown });
    const stream = steps.find((s) => s.step === 'stream') as unknown as { events: string[] };
    expect(stream.events.at(-1)).toBe('debate.completed');
    expect(stream.events).toContain('verdict');
    expect(steps.find((s) => s.step === 'trpc')).toMatchObject({ status: 'completed' });
    expect(steps.find((s) => s.step === 'score')).toMatchObject({ totalResolved: 1 });
  }, 90_000);

  it('runs verdict ask --json to the result', async () => {
    const user = await registerUser(api.baseUrl, 'clients-distributed');
    await db.core.accounts.setPlan(user.userId, 'pro');
    const key = await apiClient(api.baseUrl, { cookie: user.cookie }).POST('/api/keys', {
      body: { name: 'cli' },
    });
    const asked = await runCli(
      ['ask', 'Does the CLI work on the distributed mode?', '--json', '--rounds', '1'],
      {
        HOME: '/nonexistent',
        VERDICT_URL: api.baseUrl,
        VERDICT_API_KEY: key.data?.key ?? '',
      },
    );
    expect(asked.code, asked.stderr).toBe(0);
    const last = JSON.parse(asked.stdout.trim().split('\n').at(-1) ?? '{}');
    expect(last).toMatchObject({ type: 'result', debate: { status: 'completed' } });
  }, 60_000);
});
