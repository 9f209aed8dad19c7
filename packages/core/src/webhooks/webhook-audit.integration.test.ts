import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  actingAs,
  auditEntriesOf,
  createTestCore,
  type TestCore,
  uniqueEmail,
  userEntry,
} from '../testing/index.ts';

describe('the audit trail of webhooks', () => {
  let test: TestCore;
  beforeAll(async () => {
    test = await createTestCore();
  });
  afterAll(() => test?.cleanup());

  const newUser = async () =>
    (await test.core.accounts.createUser({ email: uniqueEmail('hook-audit'), name: 'Audited' })).id;
  const entries = (userId: string) => auditEntriesOf(test.core, { accountId: userId });
  const url = 'https://hooks.example.com/verdict';
  /** A refusal thrown before any promise (the address check) as a rejected one. */
  const attempt = <T>(run: () => Promise<T>) => Promise.resolve().then(run);

  it('records a webhook’s creation, changes, pause and deletion once each, its secret only as issued', async () => {
    const userId = await newUser();
    const created = await actingAs(userId, () =>
      test.core.webhooks.create(userId, { url, events: ['debate.completed'], active: true }),
    );
    const target = { type: 'webhook', id: created.id };
    await actingAs(userId, () => test.core.webhooks.update(userId, created.id, { description: 'ops' }));
    await actingAs(userId, () => test.core.webhooks.update(userId, created.id, { active: false }));
    await actingAs(userId, () => test.core.webhooks.remove(userId, created.id));
    const rows = await entries(userId);
    expect(rows).toMatchObject([
      userEntry(userId, 'webhook.create', target, {
        url: { before: null, after: url },
        events: { before: null, after: ['debate.completed'] },
        active: { before: null, after: true },
        description: { before: null, after: null },
        secret: { changed: true },
      }),
      userEntry(userId, 'webhook.update', target, { description: { before: null, after: 'ops' } }),
      userEntry(userId, 'webhook.update', target, { active: { before: true, after: false } }),
      userEntry(userId, 'webhook.delete', target),
    ]);
    expect(JSON.stringify(rows)).not.toContain(created.secret);
  });

  it('records nothing for a refused change or one that changes nothing', async () => {
    const userId = await newUser();
    const stranger = await newUser();
    const created = await test.core.webhooks.create(userId, {
      url,
      events: ['debate.completed'],
      active: true,
    });
    const before = (await entries(userId)).length;
    await expect(test.core.webhooks.update(stranger, created.id, { active: false })).rejects.toThrow();
    await expect(test.core.webhooks.remove(stranger, created.id)).rejects.toThrow();
    await expect(
      attempt(() => test.core.webhooks.update(userId, created.id, { url: 'http://127.0.0.1/hook' })),
    ).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    await expect(
      attempt(() =>
        test.core.webhooks.create(userId, {
          url: 'http://10.0.0.1/x',
          events: ['debate.completed'],
          active: true,
        }),
      ),
    ).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    await test.core.webhooks.update(userId, created.id, { active: true });
    expect(await entries(userId)).toHaveLength(before);
    expect(await entries(stranger)).toEqual([]);
  });
});
