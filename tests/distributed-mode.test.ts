import { createTestCore, type TestCore, testDatabaseUrl, uniqueSchema } from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, registerUser } from './support/api-client.ts';
import { type RunningProcess, runAdmin, startApi } from './support/processes.ts';

/** Polls `attempt` until it yields a value; fails when that takes longer than `ms`. */
async function untilWithin<T>(ms: number, attempt: () => Promise<T | null>): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await attempt();
    if (value !== null) return value;
    if (Date.now() - started > ms) throw new Error(`not seen within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

// Two API processes on one PostgreSQL schema: what horizontal scaling of the API looks like.
describe('two API processes sharing one database', () => {
  const schema = uniqueSchema('e2e');
  const env = { DATABASE_URL: testDatabaseUrl(), DATABASE_SCHEMA: schema };
  let first: RunningProcess;
  let second: RunningProcess;
  let db: TestCore;

  beforeAll(async () => {
    first = await startApi(env);
    second = await startApi(env);
    db = await createTestCore(env);
  });
  afterAll(async () => {
    await first?.stop();
    await second?.stop();
    await db?.cleanup();
  });

  it('enforce one per-key limit between them, not one each', async () => {
    const user = await registerUser(first.baseUrl, 'shared');
    const key = await apiClient(first.baseUrl, { cookie: user.cookie }).POST('/api/keys', {
      body: { name: 'limited', config: { rateLimit: 6 } },
    });
    const onFirst = apiClient(first.baseUrl, { key: key.data?.key });
    const onSecond = apiClient(second.baseUrl, { key: key.data?.key });
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      const target = i % 2 === 0 ? onFirst : onSecond;
      statuses.push((await target.GET('/v1/me')).response.status);
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(6);
    expect(statuses.filter((s) => s === 429)).toHaveLength(4);
  });

  it('see a key revoked on one process refused by the other within a second', async () => {
    const user = await registerUser(first.baseUrl, 'revoke');
    const onFirst = apiClient(first.baseUrl, { cookie: user.cookie });
    const key = await onFirst.POST('/api/keys', { body: { name: 'short' } });
    const onSecond = apiClient(second.baseUrl, { key: key.data?.key });
    // Warm: the second process answers the key from its cache by now.
    for (let i = 0; i < 5; i++) expect((await onSecond.GET('/v1/me')).response.status).toBe(200);
    const revoked = await onFirst.DELETE('/api/keys/{id}', { params: { path: { id: key.data?.id ?? '' } } });
    expect(revoked.response.status).toBe(204);
    const after = await untilWithin(1000, async () => {
      const answer = await onSecond.GET('/v1/me');
      return answer.response.status === 401 ? answer : null;
    });
    expect(after.error?.error.code).toBe('UNAUTHORIZED');
  });

  it("see an operator's plan change on a warm key within a second", async () => {
    const user = await registerUser(first.baseUrl, 'upgrade');
    const key = await apiClient(first.baseUrl, { cookie: user.cookie }).POST('/api/keys', {
      body: { name: 'warm' },
    });
    const onSecond = apiClient(second.baseUrl, { key: key.data?.key });
    for (let i = 0; i < 5; i++) expect((await onSecond.GET('/v1/me')).data?.plan).toBe('free');
    const email = (await onSecond.GET('/v1/me')).data?.email ?? '';
    expect((await runAdmin(['set-plan', '--email', email, '--plan', 'pro'], env)).code).toBe(0);
    const upgraded = await untilWithin(1000, async () => {
      const me = await onSecond.GET('/v1/me');
      return me.data?.plan === 'pro' ? me : null;
    });
    expect(upgraded.response.headers.get('x-ratelimit-limit')).toBe('120');
  });

  it('serve a key the operator command created on the same database', async () => {
    const email = `op-${schema}@example.com`;
    const created = await runAdmin(['create-user', '--email', email, '--name', 'Operator'], env);
    expect(created.code).toBe(0);
    expect((await runAdmin(['set-plan', '--email', email, '--plan', 'pro'], env)).code).toBe(0);
    const granted = await runAdmin(['grant-credits', '--email', email, '--amount', '25'], env);
    expect(granted.stdout).toContain('balance 35');
    const keyRun = await runAdmin(['create-key', '--email', email, '--name', 'ops'], env);
    expect(keyRun.code).toBe(0);
    const key = keyRun.stdout.trim().split('\n').at(-1) ?? '';
    expect(key).toMatch(/^vrd_/);
    const me = await apiClient(second.baseUrl, { key }).GET('/v1/me');
    expect(me.response.status).toBe(200);
    expect(me.data).toMatchObject({ email, plan: 'pro' });
    expect(me.response.headers.get('x-ratelimit-limit')).toBe('120');
  });

  it('rejects a bad operator command with a message and exit code 1, changing nothing', async () => {
    const bad = await runAdmin(['set-plan', '--email', `nobody-${schema}@example.com`, '--plan', 'pro'], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('No user with email');
    const badPlan = await runAdmin(
      ['create-user', '--email', `x-${schema}@example.com`, '--name', 'X', '--plan', 'gold'],
      env,
    );
    expect(badPlan.code).toBe(1);
    expect(await db.core.accounts.findUserByEmail(`x-${schema}@example.com`)).toBeNull();
  });
});
