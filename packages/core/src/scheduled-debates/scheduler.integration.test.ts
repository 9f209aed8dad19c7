import type { CreateScheduledDebateInput, Plan } from '@verdict/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { auditEntriesOf, createTestCore, type TestCore, uniqueEmail } from '../testing/index.ts';
import { createScheduler, type Scheduler } from './scheduler.ts';

// The scheduler on real PostgreSQL with a clock the test moves by hand: no test sleeps to reach a run time,
// a month end or a year end.
describe('the scheduler', () => {
  let nowMs = Date.UTC(2026, 0, 30, 8, 0);
  const clock = { now: () => nowMs };
  const setNow = (iso: string) => {
    nowMs = Date.parse(iso);
  };
  let test: TestCore;
  let scheduler: Scheduler;

  const user = async (plan: Plan, credits = 0) => {
    const { id } = await test.core.accounts.createUser({ email: uniqueEmail('sched'), name: 'S', plan });
    if (credits > 0) await test.core.billing.grantCredits(id, credits);
    return id;
  };
  const balanceOf = async (userId: string) =>
    (
      await test.core.db.execute<{ credit_balance: number }>(
        'select credit_balance from users where id = ?',
        [userId],
      )
    )[0]?.credit_balance;
  const schedule = (userId: string, input: Partial<CreateScheduledDebateInput> = {}) =>
    test.core.scheduledDebates.create(userId, {
      question: `Should we revisit the roadmap? (${Math.random()})`,
      frequency: 'daily',
      timeOfDay: '09:00',
      timezone: 'UTC',
      mode: 'fast',
      ...input,
    });
  const debatesOf = (scheduleId: string) =>
    test.core.db.execute<{ id: string; question: string; mode: string; funding_source: string }>(
      `select d.id, d.question, d.mode, d.funding_source from scheduled_runs r
         join debates d on d.id = r.debate_id where r.schedule_id = ? order by r.run_at`,
      [scheduleId],
    );
  const read = (userId: string, id: string) => test.core.scheduledDebates.get(userId, id);

  beforeAll(async () => {
    test = await createTestCore({ CONCURRENT_DEBATES: '1000' }, { clock });
    scheduler = createScheduler({ db: test.core.db, clock, creation: test.core.debates });
  });
  // Each test's schedules would fall due again in the next test's time: each test starts with none active.
  afterEach(async () => {
    await test.core.db.execute('update scheduled_debates set active = false');
  });
  afterAll(async () => {
    await test?.cleanup();
  });

  it('creates one debate when a run falls due, billed like a manual one, and moves the schedule on', async () => {
    setNow('2026-03-10T08:00:00Z');
    const owner = await user('pro', 5);
    const before = await balanceOf(owner);
    const created = await schedule(owner, { mode: 'balanced', context: 'Quarterly planning' });
    expect(created.nextRunAt).toBe('2026-03-10T09:00:00.000Z');

    setNow('2026-03-10T08:59:59Z');
    expect(await scheduler.runDue(100)).toEqual([]);
    setNow('2026-03-10T09:00:03Z');
    const outcomes = await scheduler.runDue(100);
    expect(outcomes).toEqual([{ kind: 'created', scheduleId: created.id, debateId: expect.any(String) }]);
    expect(await scheduler.runDue(100)).toEqual([]);

    const debates = await debatesOf(created.id);
    expect(debates).toEqual([
      {
        id: outcomes[0]?.kind === 'created' ? outcomes[0].debateId : '',
        question: created.question,
        mode: 'balanced',
        funding_source: 'user_credits',
      },
    ]);
    expect(await balanceOf(owner)).toBe((before ?? 0) - 3);
    const after = await read(owner, created.id);
    expect(after).toMatchObject({
      runCount: 1,
      lastRunAt: '2026-03-10T09:00:03.000Z',
      nextRunAt: '2026-03-11T09:00:00.000Z',
      active: true,
      lastFailure: null,
    });
  });

  it('runs a monthly schedule on the 31st, or on the last day of shorter months, across a leap February and a year end', async () => {
    setNow('2027-11-15T12:00:00Z');
    const owner = await user('pro', 100);
    const created = await schedule(owner, { frequency: 'monthly', dayOfMonth: 31, timeOfDay: '23:30' });
    const runs: string[] = [];
    // Each step lands a few seconds after the run time the schedule shows, as a scheduler pass would.
    for (let i = 0; i < 6; i++) {
      const { nextRunAt } = await read(owner, created.id);
      nowMs = Date.parse(nextRunAt) + 4000;
      expect(await scheduler.runDue(100)).toHaveLength(1);
      runs.push(nextRunAt);
    }
    expect(runs).toEqual([
      '2027-11-30T23:30:00.000Z',
      '2027-12-31T23:30:00.000Z',
      '2028-01-31T23:30:00.000Z',
      '2028-02-29T23:30:00.000Z',
      '2028-03-31T23:30:00.000Z',
      '2028-04-30T23:30:00.000Z',
    ]);
    expect(await debatesOf(created.id)).toHaveLength(6);
    expect((await read(owner, created.id)).runCount).toBe(6);
  });

  it('runs a schedule missed over a downtime once, then computes the next run from now', async () => {
    setNow('2026-01-30T08:00:00Z');
    const owner = await user('pro', 50);
    const monthly = await schedule(owner, { frequency: 'monthly', dayOfMonth: 31 });
    const daily = await schedule(owner);
    // No node ran from 30 January to 15 April: three monthly runs and 75 daily ones were missed.
    setNow('2026-04-15T13:00:00Z');
    expect(await scheduler.runDue(100)).toHaveLength(2);
    expect(await scheduler.runDue(100)).toEqual([]);
    expect(await debatesOf(monthly.id)).toHaveLength(1);
    expect(await debatesOf(daily.id)).toHaveLength(1);
    expect(await read(owner, monthly.id)).toMatchObject({
      runCount: 1,
      nextRunAt: '2026-04-30T09:00:00.000Z',
    });
    expect(await read(owner, daily.id)).toMatchObject({ runCount: 1, nextRunAt: '2026-04-16T09:00:00.000Z' });
  });

  it('never creates two debates for one run when several schedulers on separate connections pass at once', async () => {
    setNow('2026-05-01T08:00:00Z');
    const owner = await user('pro', 500);
    const ids = new Set<string>();
    for (let i = 0; i < 30; i++) ids.add((await schedule(owner)).id);
    const second = await createTestCore(
      { DATABASE_SCHEMA: test.schema, CONCURRENT_DEBATES: '1000' },
      { clock },
    );
    try {
      const other = createScheduler({ db: second.core.db, clock, creation: second.core.debates });
      setNow('2026-05-01T09:00:01Z');
      const passes = await Promise.all([
        scheduler.runDue(100),
        other.runDue(100),
        scheduler.runDue(100),
        other.runDue(100),
      ]);
      const made = passes.flat().filter((o) => o.kind === 'created' && ids.has(o.scheduleId));
      expect(made).toHaveLength(30);
      expect(new Set(made.map((o) => o.scheduleId)).size).toBe(30);
      // Each pass took some of them: the claims really ran side by side.
      expect(passes.filter((pass) => pass.length > 0).length).toBeGreaterThan(1);
    } finally {
      await second.core.close();
    }
    for (const id of ids) {
      expect(await debatesOf(id)).toHaveLength(1);
      expect((await read(owner, id)).runCount).toBe(1);
    }
  });

  it('deactivates a schedule when the run that reaches maxRuns is made, and makes no more', async () => {
    setNow('2026-06-01T08:00:00Z');
    const owner = await user('pro', 20);
    const created = await schedule(owner, { maxRuns: 2 });
    setNow('2026-06-01T09:00:01Z');
    await scheduler.runDue(100);
    expect((await read(owner, created.id)).active).toBe(true);
    setNow('2026-06-02T09:00:01Z');
    await scheduler.runDue(100);
    expect(await read(owner, created.id)).toMatchObject({ runCount: 2, active: false });
    // The pause is the scheduler's change, recorded once, after the owner's creation.
    expect((await auditEntriesOf(test.core, { accountId: owner })).slice(1)).toMatchObject([
      {
        action: 'schedule.update',
        target_id: created.id,
        changes: { active: { before: true, after: false } },
        actor_kind: 'system',
        actor_id: 'scheduler',
      },
    ]);
    setNow('2026-06-03T09:00:01Z');
    expect(await scheduler.runDue(100)).toEqual([]);
    expect(await debatesOf(created.id)).toHaveLength(2);
  });

  it('records a run that cannot be paid with its reason, does not count it, and moves on', async () => {
    setNow('2026-07-01T08:00:00Z');
    const poor = await user('pro');
    await test.core.db.execute('update users set credit_balance = 0 where id = ?', [poor]);
    const unpaid = await schedule(poor, { mode: 'thorough' });
    // A BYOK plan cannot create a schedule; an account that moves to one keeps its schedules, whose runs
    // are then refused for want of provider keys.
    const byokOwner = await user('pro');
    const byok = await schedule(byokOwner);
    await test.core.accounts.setPlan(byokOwner, 'byok');
    setNow('2026-07-01T09:00:02Z');
    const outcomes = await scheduler.runDue(100);
    expect(outcomes).toEqual(
      expect.arrayContaining([
        { kind: 'refused', scheduleId: unpaid.id, code: 'QUOTA_EXCEEDED' },
        { kind: 'refused', scheduleId: byok.id, code: 'VALIDATION_ERROR' },
      ]),
    );
    expect(await read(poor, unpaid.id)).toMatchObject({
      runCount: 0,
      lastRunAt: null,
      active: true,
      nextRunAt: '2026-07-02T09:00:00.000Z',
      lastFailure: {
        code: 'QUOTA_EXCEEDED',
        message: 'This debate needs 8 credits',
        at: '2026-07-01T09:00:02.000Z',
      },
    });
    const byokAfter = await read(byokOwner, byok.id);
    expect(byokAfter.lastFailure?.message).toMatch(/provider keys/);
    expect(byokAfter.runCount).toBe(0);
    expect(await debatesOf(unpaid.id)).toEqual([]);
    expect(await debatesOf(byok.id)).toEqual([]);
    expect(await balanceOf(poor)).toBe(0);
  });

  it('rolls back a run that fails unexpectedly, leaving it due, while the other due runs are made', async () => {
    setNow('2026-08-01T08:00:00Z');
    const owner = await user('pro', 20);
    const broken = await schedule(owner, { question: 'This run breaks the creation on purpose' });
    const fine = await schedule(owner);
    const flaky = createScheduler({
      db: test.core.db,
      clock,
      creation: {
        create: (request, caller) => {
          if (request.question.startsWith('This run breaks')) throw new TypeError('a defect');
          return test.core.debates.create(request, caller);
        },
      },
    });
    setNow('2026-08-01T09:00:01Z');
    await expect(flaky.runDue(100)).rejects.toThrow(/its due run failed/);
    expect((await read(owner, fine.id)).runCount).toBe(1);
    expect(await read(owner, broken.id)).toMatchObject({
      runCount: 0,
      nextRunAt: '2026-08-01T09:00:00.000Z',
    });
    // Once creation works again, the next pass makes the run that was left due.
    expect(await scheduler.runDue(100)).toEqual([
      { kind: 'created', scheduleId: broken.id, debateId: expect.any(String) },
    ]);
  });
});
