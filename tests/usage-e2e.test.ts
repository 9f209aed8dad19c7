import { randomUUID } from 'node:crypto';
import {
  createTestCore,
  eventually,
  type TestCore,
  testDatabaseUrl,
  uniqueSchema,
} from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, expectBody, registerUser } from './support/api-client.ts';
import { type RunningProcess, startApi } from './support/processes.ts';
import { MODES, type Stack, startStack } from './support/stack.ts';

const N = 40;
const MISSES = 7;

/** `times` requests, ten at a time. */
const burst = async (times: number, send: () => Promise<{ response: Response }>) => {
  for (let done = 0; done < times; done += 10) {
    await Promise.all(Array.from({ length: Math.min(10, times - done) }, send));
  }
};

// Per-key usage counted by two API processes on one PostgreSQL: each adds its own counts to the same rows.
// Distributed only: two API processes on one database is what distributed mode is (an embedded server holds
// its DATA_DIR alone).
describe('usage counted by two API processes', () => {
  const env = { DATABASE_URL: testDatabaseUrl(), DATABASE_SCHEMA: uniqueSchema('usage') };
  let first: RunningProcess;
  let second: RunningProcess;
  let db: TestCore;
  let key: string;

  beforeAll(async () => {
    // One after the other: the first applies the migrations to the fresh schema.
    first = await startApi(env);
    second = await startApi(env);
    db = await createTestCore(env);
    const user = await registerUser(first.baseUrl, 'usage');
    await db.core.accounts.setRateLimit(user.userId, 100_000);
    const created = await apiClient(first.baseUrl, { cookie: user.cookie }).POST('/api/keys', {
      body: { name: 'counted twice over' },
    });
    key = expectBody(created, 201).key;
  });
  afterAll(async () => {
    await first?.stop();
    await second?.stop();
    await db?.cleanup();
  });

  it('add up exactly: every request to either process is in the one total once each has written its counts', async () => {
    const onFirst = apiClient(first.baseUrl, { key });
    const onSecond = apiClient(second.baseUrl, { key });
    await Promise.all([burst(N, () => onFirst.GET('/v1/me')), burst(N, () => onSecond.GET('/v1/me'))]);
    await burst(MISSES, async () => {
      const answer = await onSecond.GET('/v1/verdicts/{id}', { params: { path: { id: randomUUID() } } });
      expect(answer.response.status).toBe(404);
      return answer;
    });

    let reads = 0;
    const usage = await eventually(
      async () => {
        reads += 1;
        return expectBody(await onFirst.GET('/v1/usage'), 200);
      },
      (u) => u.byEndpoint['/v1/me'] === 2 * N && u.byEndpoint['/v1/verdicts/:id'] === MISSES,
      5_000,
    );
    // Each read is counted too, the answering one included.
    expect(usage.byEndpoint).toEqual({ '/v1/me': 2 * N, '/v1/verdicts/:id': MISSES, '/v1/usage': reads });
    expect(usage.totalRequests).toBe(2 * N + MISSES + reads);
    expect(usage.period).toBe(`${new Date().toISOString().slice(0, 7)}-01`);
    expect(usage.rateLimit).toBe(100_000);
  });
});

// Counts are kept in memory and written in batches: in each mode, a stop must write what it holds.
describe.each(MODES)('usage of an API process stopped and started again (%s)', (mode) => {
  let stack: Stack;
  let key: string;

  beforeAll(async () => {
    stack = await startStack(mode, 'usage_restart');
    const user = await registerUser(stack.baseUrl, 'usage');
    await stack.setRateLimit(user.email, 100_000);
    const created = await apiClient(stack.baseUrl, { cookie: user.cookie }).POST('/api/keys', {
      body: { name: 'counted across a restart' },
    });
    key = expectBody(created, 201).key;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('loses nothing when the process is stopped (SIGTERM) right after its last requests', async () => {
    const before = expectBody(await apiClient(stack.baseUrl, { key }).GET('/v1/usage'), 200);
    const client = apiClient(stack.baseUrl, { key });
    await burst(N, () => client.GET('/v1/me'));
    await stack.restartApi();
    const after = expectBody(await apiClient(stack.baseUrl, { key }).GET('/v1/usage'), 200);
    expect(after.byEndpoint['/v1/me']).toBe((before.byEndpoint['/v1/me'] ?? 0) + N);
    expect(after.totalRequests).toBe(before.totalRequests + N + 1);
  });
});
