import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import type { ErrorCode, Profile } from '@verdict/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRouter } from '../router.ts';
import {
  createKey,
  type Harness,
  registerUser,
  startServer,
  type TestUser,
} from '../testing/http-harness.ts';

const MISSING_ID = '00000000-0000-4000-8000-000000000000';

describe('tRPC client against /trpc', () => {
  let h: Harness;
  let alice: TestUser;
  let bob: TestUser;
  let aliceKey: string;
  let bobsKeyId: string;

  const clientFor = (key: string | undefined) =>
    createTRPCClient<AppRouter>({
      links: [httpLink({ url: `${h.baseUrl}/trpc`, headers: () => (key ? { 'X-Api-Key': key } : {}) })],
    });

  /** The typed rejection of a call; fails the test when the call succeeds. */
  async function rejection(call: Promise<unknown>): Promise<TRPCClientError<AppRouter>> {
    const error = await call.then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(TRPCClientError);
    return error as TRPCClientError<AppRouter>;
  }

  beforeAll(async () => {
    h = await startServer();
    [alice, bob] = await Promise.all([registerUser(h, { name: 'Alice' }), registerUser(h, { name: 'Bob' })]);
    aliceKey = (await createKey(h, alice, { name: 'alice trpc', config: { rateLimit: 1000 } })).key;
    bobsKeyId = (await createKey(h, bob, { name: 'bob trpc' })).id;
  });
  afterAll(async () => {
    await h.close();
  });

  it('reads the profile with v1.me.query(), typed as the Profile contract', async () => {
    const me: Profile = await clientFor(aliceKey).v1.me.query();
    expect(me).toEqual({
      id: alice.session.user.id,
      name: 'Alice',
      email: alice.email,
      plan: 'free',
      createdAt: alice.session.user.createdAt,
    });
  });

  it('lists keys with keys.list.query(): typed keys without the secret', async () => {
    const { keys } = await clientFor(aliceKey).keys.list.query();
    const names: string[] = keys.map((k) => k.name);
    expect(names).toEqual(['alice trpc']);
    expect(keys[0]?.keyPrefix).toBe(aliceKey.slice(0, 16));
    expect(Object.keys(keys[0] ?? {})).not.toContain('key');
  });

  it('creates, renames and revokes a key through mutations', async () => {
    const client = clientFor(aliceKey);
    const created = await client.keys.create.mutate({ name: 'via trpc', config: { preset: 'local' } });
    expect(created.key.startsWith('vrd_')).toBe(true);
    expect(created.config?.rateLimit).toBeNull();
    const renamed = await client.keys.update.mutate({ id: created.id, name: 'renamed' });
    expect(renamed.name).toBe('renamed');
    await client.keys.revoke.mutate({ id: created.id });
    const revokedClient = clientFor(created.key);
    const error = await rejection(revokedClient.v1.me.query());
    const code: ErrorCode | undefined = error.data?.appCode;
    expect(code).toBe('UNAUTHORIZED');
  });

  it("rejects keys.update of another user's key with TRPCClientError whose data.appCode is FORBIDDEN", async () => {
    const error = await rejection(
      clientFor(aliceKey).keys.update.mutate({ id: bobsKeyId, name: 'mine now' }),
    );
    const code: ErrorCode | undefined = error.data?.appCode;
    expect(code).toBe('FORBIDDEN');
    expect(error.message).toBe('This API key belongs to another account');
  });

  it('rejects keys.update of a missing key with data.appCode NOT_FOUND', async () => {
    const error = await rejection(clientFor(aliceKey).keys.update.mutate({ id: MISSING_ID, name: 'ghost' }));
    const code: ErrorCode | undefined = error.data?.appCode;
    expect(code).toBe('NOT_FOUND');
  });

  it('reports validation failures with appCode VALIDATION_ERROR and typed details', async () => {
    const error = await rejection(clientFor(aliceKey).keys.create.mutate({ name: '' }));
    const code: ErrorCode | undefined = error.data?.appCode;
    expect(code).toBe('VALIDATION_ERROR');
    const paths: string[] | undefined = error.data?.details?.map((d) => d.path);
    expect(paths).toEqual(['name']);
  });

  it('rejects v1.me without a key with appCode UNAUTHORIZED', async () => {
    const error = await rejection(clientFor(undefined).v1.me.query());
    const code: ErrorCode | undefined = error.data?.appCode;
    expect(code).toBe('UNAUTHORIZED');
  });

  it('reports the tRPC code and httpStatus that match the app code (FORBIDDEN → 403)', async () => {
    const error = await rejection(clientFor(aliceKey).keys.update.mutate({ id: bobsKeyId, name: 'again' }));
    expect(error.data?.appCode).toBe('FORBIDDEN');
    expect({ code: error.data?.code, httpStatus: error.data?.httpStatus }).toEqual({
      code: 'FORBIDDEN',
      httpStatus: 403,
    });
  });

  it('answers v1.health.query() without credentials', async () => {
    expect(await clientFor(undefined).v1.health.query()).toEqual({ status: 'ok' });
  });
});
