import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  actingAs,
  auditEntriesOf,
  createTestCore,
  type TestCore,
  uniqueEmail,
  userEntry,
} from '../testing/index.ts';

describe.each(['postgres', 'pglite'] as const)('the audit trail of API keys (%s)', (database) => {
  let test: TestCore;
  beforeAll(async () => {
    test = await createTestCore({}, { database });
  });
  afterAll(() => test?.cleanup());

  const newUser = async () =>
    (await test.core.accounts.createUser({ email: uniqueEmail('key-audit'), name: 'Audited' })).id;
  const entries = (userId: string) => auditEntriesOf(test.core, { accountId: userId });

  it('records a key’s creation, changes and revocation once each, by whom, never its secret', async () => {
    const userId = await newUser();
    const created = await actingAs(userId, () => test.core.apiKeys.create(userId, 'ci', null));
    const target = { type: 'api_key', id: created.id };
    await actingAs(userId, () => test.core.apiKeys.update(userId, created.id, { name: 'deploy' }));
    await actingAs(userId, () => test.core.apiKeys.revoke(userId, created.id));
    const rows = await entries(userId);
    expect(rows).toMatchObject([
      userEntry(userId, 'api_key.create', target, {
        name: { before: null, after: 'ci' },
        config: { before: null, after: null },
      }),
      userEntry(userId, 'api_key.update', target, { name: { before: 'ci', after: 'deploy' } }),
      userEntry(userId, 'api_key.revoke', target),
    ]);
    expect(JSON.stringify(rows)).not.toContain(created.key.slice(4));
  });

  it('records nothing for a refused change or one that changes nothing', async () => {
    const userId = await newUser();
    const created = await test.core.apiKeys.create(userId, 'kept', null);
    const before = (await entries(userId)).length;
    const stranger = await newUser();
    await expect(test.core.apiKeys.update(stranger, created.id, { name: 'taken' })).rejects.toThrow();
    await expect(test.core.apiKeys.revoke(stranger, created.id)).rejects.toThrow();
    await expect(
      test.core.apiKeys.update(userId, created.id, { config: { rateLimit: 1_000_000 } }),
    ).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    await test.core.apiKeys.update(userId, created.id, { name: 'kept' });
    expect(await entries(userId)).toHaveLength(before);
    expect(await entries(stranger)).toEqual([]);
  });
});
