import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../core.ts';
import type { Database } from '../db/orm.ts';
import { systemClock } from '../shared/clock.ts';
import {
  createProxiedTestCores,
  createTestCore,
  type TcpProxy,
  type TestCore,
  uniqueEmail,
} from '../testing/index.ts';
import { createApiKeys, type KeyPrincipal } from './api-keys.ts';

/** The bound the cache promises: a change on any process is seen by every other within this. */
const SEEN_WITHIN_MS = 1000;

/** Key lookups of one "process" on `db`, counting the database units of work they open. */
function keysOn(db: Database) {
  let lookups = 0;
  const counted: Database = {
    ...db,
    em: () => {
      lookups += 1;
      return db.em();
    },
  };
  return { keys: createApiKeys({ db: counted, clock: systemClock }), lookups: () => lookups };
}
type Keys = ReturnType<typeof keysOn>;

/** Presents the key until a lookup costs no round trip (the cache listens and holds it); its answer. */
async function warm({ keys, lookups }: Keys, raw: string) {
  for (const started = Date.now(); Date.now() - started < 10_000; ) {
    const before = lookups();
    const principal = await keys.authenticate(raw);
    if (lookups() === before) return principal;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the key never came from the cache');
}

/** How long until `check` holds of the key's answer, polled; fails past `withinMs`. */
async function timeUntil(
  keys: Keys,
  raw: string,
  /** Told undefined for a lookup that failed (the database unreachable). */
  check: (principal: KeyPrincipal | null | undefined) => boolean,
  withinMs = SEEN_WITHIN_MS,
) {
  const started = Date.now();
  while (!check(await keys.keys.authenticate(raw).catch(() => undefined))) {
    if (Date.now() - started > withinMs) throw new Error(`not seen within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return Date.now() - started;
}

async function newKey(core: Core, config: { rateLimit: number } | null = null) {
  const user = await core.accounts.createUser({ email: uniqueEmail('keys'), name: 'Keys' });
  const created = await core.apiKeys.create(user.id, 'cached', config);
  return { userId: user.id, keyId: created.id, raw: created.key };
}

describe.each(['postgres', 'pglite'] as const)('API keys on %s', (database) => {
  let test: TestCore;
  let other: Keys;
  beforeAll(async () => {
    test = await createTestCore({}, { database });
    other = keysOn(test.core.db);
  });
  afterAll(async () => {
    await other?.keys.close();
    await test?.cleanup();
  });

  it('answer a warm key without a round trip to the database', async () => {
    const { raw, userId } = await newKey(test.core);
    expect(await warm(other, raw)).toMatchObject({ userId, plan: 'free' });
    const before = other.lookups();
    for (let i = 0; i < 100; i++) expect((await other.keys.authenticate(raw))?.userId).toBe(userId);
    expect(other.lookups()).toBe(before);
  });

  it('refuse a warm key once it is revoked, by whichever writer', async () => {
    const { raw, userId, keyId } = await newKey(test.core);
    await warm(other, raw);
    await test.core.apiKeys.revoke(userId, keyId);
    await timeUntil(other, raw, (principal) => principal === null);
  });

  it('refuse a key at once on the process that revoked or changed it, without waiting to hear of it', async () => {
    const { raw, userId, keyId } = await newKey(test.core);
    const own = keysOn(test.core.db);
    try {
      await warm(own, raw);
      await own.keys.update(userId, keyId, { config: { rateLimit: 3 } });
      expect((await own.keys.authenticate(raw))?.config?.rateLimit).toBe(3);
      await warm(own, raw);
      await own.keys.revoke(userId, keyId);
      expect(await own.keys.authenticate(raw)).toBeNull();
    } finally {
      await own.keys.close();
    }
  });

  it("answer a warm key's new plan, limit and config once they change", async () => {
    const { raw, userId, keyId } = await newKey(test.core);
    await warm(other, raw);
    await test.core.accounts.setPlan(userId, 'pro');
    await timeUntil(other, raw, (principal) => principal?.plan === 'pro');
    await warm(other, raw);
    await test.core.accounts.setRateLimit(userId, 7);
    await timeUntil(other, raw, (principal) => principal?.accountLimit === 7);
    await warm(other, raw);
    await test.core.apiKeys.update(userId, keyId, { config: { rateLimit: 5 } });
    await timeUntil(other, raw, (principal) => principal?.config?.rateLimit === 5);
  });

  it('keep serving other warm keys when one user changes', async () => {
    const changed = await newKey(test.core);
    const untouched = await newKey(test.core);
    await warm(other, changed.raw);
    await warm(other, untouched.raw);
    await test.core.accounts.setPlan(changed.userId, 'pro');
    await timeUntil(other, changed.raw, (principal) => principal?.plan === 'pro');
    const before = other.lookups();
    expect((await other.keys.authenticate(untouched.raw))?.plan).toBe('free');
    expect(other.lookups()).toBe(before);
  });

  it('hand out answers nobody can change', async () => {
    const { raw } = await newKey(test.core, { rateLimit: 3 });
    const principal = await warm(other, raw);
    expect(() => {
      Object.assign(principal?.profile ?? {}, { plan: 'enterprise' });
    }).toThrow(TypeError);
  });
});

describe('API keys cached by a process that loses its database', () => {
  let cores: Awaited<ReturnType<typeof createProxiedTestCores>>;
  let direct: TestCore;
  let proxy: TcpProxy;
  let cut: Keys;
  beforeAll(async () => {
    cores = await createProxiedTestCores();
    ({ direct, proxy } = cores);
    cut = keysOn(cores.proxied.core.db);
  });
  afterAll(async () => {
    await proxy?.restore().catch(() => {});
    await cut?.keys.close();
    await cores?.cleanup();
  });

  it('never serve a key revoked while it could not hear of it', async () => {
    const { raw, userId, keyId } = await newKey(direct.core);
    await warm(cut, raw);
    await proxy.cut();
    await direct.core.apiKeys.revoke(userId, keyId);
    // Cut off, the process looks the key up and fails; it must never answer the revoked key from memory.
    for (let i = 0; i < 5; i++)
      expect(await cut.keys.authenticate(raw).catch(() => 'failed')).not.toMatchObject({ userId });
    await proxy.restore();
    await timeUntil(cut, raw, (principal) => principal === null, 15_000);
  });
});
