import { createScheduler } from '@verdict/core';
import { createTestCore, eventually, type TestCore, uniqueEmail } from '@verdict/core/testing';
import { Effect } from 'effect';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineLogLayer } from '../logging.ts';
import { createEngineNode, type EngineNode } from '../node/engine-node.ts';
import { type SchedulePassLimits, schedulePass } from './scheduler-worker.ts';

// The scheduler as engine nodes run it: two nodes on one database, each with the scheduler worker, and a
// clock the test moves from one run time to the next across month ends. One node stops half-way; the other
// carries on alone. Each run time must come to exactly one debate.
describe('the scheduler worker on two engine nodes', () => {
  let nowMs = Date.UTC(2027, 10, 20, 12, 0);
  const clock = { now: () => nowMs };
  let test: TestCore;
  const nodes: EngineNode[] = [];

  const startNode = () => {
    const node = createEngineNode({
      db: test.core.db,
      bus: test.core.bus,
      clock,
      slots: 20,
      providerKeys: {},
      simulated: { firstTokenMs: 1 },
      policy: { timeoutMs: 2000, retries: 0, backoffMs: 10 },
      scheduler: {
        runDue: createScheduler({ db: test.core.db, clock, creation: test.core.debates }).runDue,
        intervalMs: 50,
      },
    });
    node.start();
    nodes.push(node);
    return node;
  };

  beforeAll(async () => {
    test = await createTestCore({ CONCURRENT_DEBATES: '1000' }, { clock });
  });
  afterAll(async () => {
    for (const node of nodes) await node.stop();
    await test?.cleanup();
  });

  it('makes one debate per run time, month end after month end, with two nodes and then one', async () => {
    const { id: owner } = await test.core.accounts.createUser({
      email: uniqueEmail('worker'),
      name: 'W',
      plan: 'pro',
    });
    await test.core.billing.grantCredits(owner, 100);
    const monthly = await test.core.scheduledDebates.create(owner, {
      question: 'Should the month-end report be reviewed again?',
      frequency: 'monthly',
      dayOfMonth: 31,
      timeOfDay: '18:00',
      timezone: 'Europe/Berlin',
      mode: 'fast',
    });
    const weekly = await test.core.scheduledDebates.create(owner, {
      question: 'Should the weekly plan change?',
      frequency: 'weekly',
      dayOfWeek: 0,
      timeOfDay: '18:00',
      timezone: 'UTC',
      mode: 'fast',
    });
    const first = startNode();
    startNode();

    const runTimes: string[] = [];
    for (let step = 0; step < 5; step++) {
      if (step === 2) await first.stop();
      const { nextRunAt, runCount } = await test.core.scheduledDebates.get(owner, monthly.id);
      // The moment of the run, and a few seconds after: as late as a pass of the worker may come.
      nowMs = Date.parse(nextRunAt) + 3000;
      const after = await eventually(
        () => test.core.scheduledDebates.get(owner, monthly.id),
        (schedule) => schedule.runCount === runCount + 1,
      );
      runTimes.push(nextRunAt);
      expect(after.lastRunAt).toBe(new Date(nowMs).toISOString());
    }
    expect(runTimes).toEqual([
      '2027-11-30T18:00:00.000Z',
      '2027-12-31T18:00:00.000Z',
      '2028-01-31T18:00:00.000Z',
      '2028-02-29T18:00:00.000Z',
      '2028-03-31T18:00:00.000Z',
    ]);
    // The weekly schedule was due at each of those moments too (Sundays passed in between): once per step,
    // however many Sundays each jump skipped.
    await eventually(
      () => test.core.scheduledDebates.get(owner, weekly.id),
      (schedule) => schedule.runCount === 5,
    );
    const perSchedule = await test.core.db.execute<{ schedule_id: string; runs: number; debates: number }>(
      `select r.schedule_id, count(*)::int as runs, count(distinct d.id)::int as debates
         from scheduled_runs r join debates d on d.id = r.debate_id group by r.schedule_id`,
    );
    expect(perSchedule.sort((a, b) => a.runs - b.runs)).toEqual([
      { schedule_id: expect.any(String), runs: 5, debates: 5 },
      { schedule_id: expect.any(String), runs: 5, debates: 5 },
    ]);
    const [all] = await test.core.db.execute<{ n: number }>(
      'select count(*)::int as n from debates where owner_id = ?',
      [owner],
    );
    expect(all?.n).toBe(10);
  });
});

// A backlog: more schedules due at the same minute than one batch of the scheduler. One pass must run them
// all, or the last ones wait a period per batch (1,000 due at 09:00 would take ~50 s, not 15).
describe('a scheduler pass under a backlog', () => {
  let nowMs = Date.UTC(2027, 0, 4, 8, 0);
  const clock = { now: () => nowMs };
  let test: TestCore;

  beforeAll(async () => {
    test = await createTestCore({ CONCURRENT_DEBATES: '1000' }, { clock });
  });
  afterAll(async () => {
    await test?.cleanup();
  });

  const pass = (limits?: SchedulePassLimits) =>
    Effect.runPromise(
      schedulePass(createScheduler({ db: test.core.db, clock, creation: test.core.debates }), limits).pipe(
        Effect.provide(engineLogLayer()),
      ),
    );

  it('runs a backlog larger than one batch in one pass, and takes no further batch once its budget is spent', async () => {
    // Two accounts: at most 100 schedules each.
    for (const name of ['A', 'B']) {
      const { id: owner } = await test.core.accounts.createUser({
        email: uniqueEmail('backlog'),
        name,
        plan: 'pro',
      });
      await test.core.billing.grantCredits(owner, 200);
      for (let i = 0; i < 75; i++) {
        await test.core.scheduledDebates.create(owner, {
          question: `Should backlog item ${name}${i} be revisited?`,
          frequency: 'daily',
          timeOfDay: '09:00',
          timezone: 'UTC',
          mode: 'fast',
        });
      }
    }
    nowMs = Date.UTC(2027, 0, 4, 9, 0, 2);
    expect(await pass()).toBe(150);
    const runs = async () =>
      (
        await test.core.db.execute<{ n: number }>(
          'select count(distinct debate_id)::int as n from scheduled_runs',
        )
      )[0]?.n;
    expect(await runs()).toBe(150);

    // The next morning, a pass whose budget is spent after its first batch leaves the rest to the next one.
    nowMs = Date.UTC(2027, 0, 5, 9, 0, 2);
    expect(await pass({ batch: 100, budgetMs: 0 })).toBe(100);
    expect(await pass()).toBe(50);
    expect(await runs()).toBe(300);
  });
});
