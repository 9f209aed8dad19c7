import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../core.ts';
import { createProxiedTestCores, type TcpProxy, type TestCore, uniqueEmail } from '../testing/index.ts';
import { createUsage } from './usage.ts';

const HOUR = 3_600_000;
/** The usages here read no replica: whose reads they are routes nothing. */
const UNROUTED = 'no-replica';
const clock = { now: () => Date.parse('2026-05-20T08:00:00Z') };
const noErrors = (error: unknown) => {
  throw error;
};

async function newKey(core: Core): Promise<string> {
  const user = await core.accounts.createUser({ email: uniqueEmail('usage'), name: 'Usage' });
  return (await core.apiKeys.create(user.id, 'counted', null)).id;
}

describe('key usage in PostgreSQL', () => {
  let cores: Awaited<ReturnType<typeof createProxiedTestCores>>;
  let direct: TestCore;
  /** A second core on the same schema, through a proxy that can cut its connections (an outage). */
  let proxied: TestCore;
  let proxy: TcpProxy;
  beforeAll(async () => {
    cores = await createProxiedTestCores();
    ({ direct, proxied, proxy } = cores);
  });
  afterAll(async () => {
    await cores?.cleanup();
  });

  /** What the database holds for the key (this reader has nothing unwritten). */
  const stored = (keyId: string) =>
    createUsage({ db: direct.core.db, clock, onError: noErrors }).ofKey({
      keyId,
      userId: UNROUTED,
      accountLimit: 60,
      config: null,
    });

  it('keeps the counts of a failed write and writes them with the next one: nothing is lost', async () => {
    const keyId = await newKey(direct.core);
    const failures: unknown[] = [];
    const usage = createUsage({
      db: proxied.core.db,
      clock,
      onError: (error) => failures.push(error),
      flushIntervalMs: HOUR,
    });
    for (let i = 0; i < 5; i++) usage.count(keyId, '/v1/me');
    await usage.flush();
    expect((await stored(keyId)).totalRequests).toBe(5);

    for (let i = 0; i < 3; i++) usage.count(keyId, '/v1/me');
    await proxy.cut();
    await usage.flush();
    expect(failures.length).toBeGreaterThan(0);
    usage.count(keyId, '/v1/verdicts/:id');
    await proxy.restore();
    // The pool may hand out a connection the cut broke: a write that fails again keeps its counts again.
    for (let attempt = 0; attempt < 5 && (await stored(keyId)).totalRequests < 9; attempt++) {
      await usage.flush();
    }
    expect((await stored(keyId)).byEndpoint).toEqual({ '/v1/me': 8, '/v1/verdicts/:id': 1 });
    await usage.close();
  });

  it('adds up what several processes write to the same rows at once, in any order', async () => {
    const keyId = await newKey(direct.core);
    const endpoints = ['/v1/me', '/v1/usage', '/v1/verdicts', '/v1/verdicts/:id', '/api/keys'];
    const processes = [direct, proxied].map((test) =>
      createUsage({ db: test.core.db, clock, onError: noErrors, flushIntervalMs: HOUR }),
    );
    for (let round = 0; round < 20; round++) {
      processes.forEach((usage, p) => {
        // Opposite orders in the two processes: written in key order, they cannot deadlock.
        const order = p === 0 ? endpoints : [...endpoints].reverse();
        for (const endpoint of order) usage.count(keyId, endpoint);
      });
      await Promise.all(processes.map((usage) => usage.flush()));
    }
    const usage = await stored(keyId);
    expect(usage.totalRequests).toBe(2 * 20 * endpoints.length);
    expect(Object.values(usage.byEndpoint)).toEqual(endpoints.map(() => 40));
    await Promise.all(processes.map((p) => p.close()));
  });

  it('drops the counts of a key deleted before they were written, and writes the others of the batch', async () => {
    const kept = await newKey(direct.core);
    const deleted = await newKey(direct.core);
    const usage = createUsage({ db: direct.core.db, clock, onError: noErrors, flushIntervalMs: HOUR });
    usage.count(kept, '/v1/me');
    usage.count(deleted, '/v1/me');
    await direct.core.db.execute(`delete from api_keys where id = '${deleted}'`);
    await usage.flush();
    expect((await stored(kept)).totalRequests).toBe(1);
    expect((await stored(deleted)).totalRequests).toBe(0);
    await usage.close();
  });

  it('reads stored and unwritten counts between writes, so none is counted twice or missed', async () => {
    const keyId = await newKey(direct.core);
    const usage = createUsage({ db: direct.core.db, clock, onError: noErrors, flushIntervalMs: HOUR });
    const reads: number[] = [];
    for (let i = 1; i <= 30; i++) {
      usage.count(keyId, '/v1/me');
      // A flush and a read in flight together: the read sees each count once, written or not.
      void usage.flush();
      reads.push(
        (await usage.ofKey({ keyId, userId: UNROUTED, accountLimit: 60, config: null })).totalRequests,
      );
    }
    expect(reads).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    await usage.close();
  });
});
