import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  actingAs,
  auditEntriesOf,
  createTestCore,
  type TestCore,
  uniqueEmail,
  userEntry,
} from '../testing/index.ts';

describe('the audit trail of scheduled debates', () => {
  let test: TestCore;
  beforeAll(async () => {
    test = await createTestCore();
  });
  afterAll(() => test?.cleanup());

  const newUser = async () =>
    (await test.core.accounts.createUser({ email: uniqueEmail('schedule-audit'), name: 'Audited' })).id;
  const entries = (userId: string) => auditEntriesOf(test.core, { accountId: userId });
  const create = (userId: string) =>
    test.core.scheduledDebates.create(userId, {
      question: 'Should we revisit the roadmap?',
      frequency: 'daily',
      timeOfDay: '09:00',
      timezone: 'UTC',
      mode: 'fast',
    });

  it('records a schedule’s creation, its changes, pause and resume, and its deletion once each', async () => {
    const userId = await newUser();
    const created = await actingAs(userId, () => create(userId));
    const target = { type: 'schedule', id: created.id };
    await actingAs(userId, () =>
      test.core.scheduledDebates.update(userId, created.id, { timeOfDay: '10:30' }),
    );
    await actingAs(userId, () => test.core.scheduledDebates.update(userId, created.id, { active: false }));
    await actingAs(userId, () => test.core.scheduledDebates.update(userId, created.id, { active: true }));
    await actingAs(userId, () => test.core.scheduledDebates.remove(userId, created.id));
    const rows = await entries(userId);
    expect(rows).toMatchObject([
      userEntry(userId, 'schedule.create', target, {
        question: { before: null, after: 'Should we revisit the roadmap?' },
        frequency: { before: null, after: 'daily' },
        timeOfDay: { before: null, after: '09:00' },
        timezone: { before: null, after: 'UTC' },
        active: { before: null, after: true },
        mode: { before: null, after: 'fast' },
        context: { before: null, after: null },
        dayOfWeek: { before: null, after: null },
        dayOfMonth: { before: null, after: null },
        maxRuns: { before: null, after: null },
      }),
      userEntry(userId, 'schedule.update', target, { timeOfDay: { before: '09:00', after: '10:30' } }),
      userEntry(userId, 'schedule.update', target, { active: { before: true, after: false } }),
      userEntry(userId, 'schedule.update', target, { active: { before: false, after: true } }),
      userEntry(userId, 'schedule.delete', target),
    ]);
  });

  it('records nothing for a refused change or one that changes nothing', async () => {
    const userId = await newUser();
    const stranger = await newUser();
    const created = await create(userId);
    const before = (await entries(userId)).length;
    await expect(
      test.core.scheduledDebates.update(stranger, created.id, { active: false }),
    ).rejects.toThrow();
    await expect(test.core.scheduledDebates.remove(stranger, created.id)).rejects.toThrow();
    // Weekly without the day of the week: refused.
    await expect(
      test.core.scheduledDebates.update(userId, created.id, { frequency: 'weekly' }),
    ).rejects.toThrow();
    await test.core.scheduledDebates.update(userId, created.id, { timeOfDay: '09:00' });
    expect(await entries(userId)).toHaveLength(before);
    expect(await entries(stranger)).toEqual([]);
  });
});
