import { randomBytes } from 'node:crypto';
import { type Core, createCore, createScheduler, loadConfig } from '@verdict/core';
import { type BenchResult, round } from '../lib/results.ts';
import type { Suite, SuiteContext } from '../lib/suite.ts';

/** Accounts owning the due schedules: a run locks its owner's row, so one account's runs go one by one. */
const OWNERS = 200;
const DUE_PER_OWNER = 5;
/** Active schedules not due, which every pass's claim must step over. */
const IDLE = 20_000;
const IDLE_PASSES = 50;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

/** Makes the owners' schedules (not the idle ones) due now. */
const makeDue = (core: Core) =>
  core.db.execute(
    `update scheduled_debates set next_run_at = now() - interval '1 minute', active = true
      where question like 'Due %'`,
  );

/** Passes of `schedulers` side by side until none finds a due run; how many runs they made. */
async function drain(schedulers: ReturnType<typeof createScheduler>[]) {
  const made = await Promise.all(
    schedulers.map(async (scheduler) => {
      let runs = 0;
      for (;;) {
        const outcomes = await scheduler.runDue(100);
        if (outcomes.some((o) => o.kind !== 'created')) throw new Error('a benchmark run was refused');
        runs += outcomes.length;
        if (outcomes.length === 0) return runs;
      }
    }),
  );
  return made.reduce((a, b) => a + b, 0);
}

async function run({ settings, log }: SuiteContext): Promise<BenchResult[]> {
  const env = {
    DATABASE_URL: settings.databaseUrl,
    DATABASE_SCHEMA: `bench_sched_${randomBytes(5).toString('hex')}`,
    CONCURRENT_DEBATES: '100000',
    LOG_LEVEL: 'silent',
  };
  const core = await createCore(loadConfig(env));
  // A second process's core on the same schema: its own connection pool, as a second engine node has.
  const second = await createCore(loadConfig(env));
  const results: BenchResult[] = [];
  try {
    log(`seeding ${OWNERS} accounts with ${DUE_PER_OWNER} schedules each, and ${IDLE} not due`);
    await core.db.execute(
      `insert into users (id, email, name, plan, credit_balance)
       select gen_random_uuid(), 'sched' || g || '@bench.invalid', 'Bench', 'pro', 0
         from generate_series(1, ?) as g`,
      [OWNERS],
    );
    const owners = await core.db.execute<{ id: string }>('select id from users');
    for (const owner of owners) await core.billing.grantCredits(owner.id, 100_000);
    await core.db.execute(
      `insert into scheduled_debates (user_id, question, mode, frequency, time_of_day, timezone, next_run_at)
       select u.id, 'Due ' || g || ' of ' || u.id, 'fast', 'daily', '09:00', 'UTC', now() + interval '1 day'
         from users u cross join generate_series(1, ?) as g`,
      [DUE_PER_OWNER],
    );
    await core.db.execute(
      `insert into scheduled_debates (user_id, question, mode, frequency, time_of_day, timezone, next_run_at)
       select (select id from users limit 1), 'Later ' || g, 'fast', 'daily', '09:00', 'UTC',
              now() + interval '1 day'
         from generate_series(1, ?) as g`,
      [IDLE],
    );
    await core.db.execute('analyze');

    const one = createScheduler({ db: core.db, clock: core.clock, creation: core.debates });
    const two = createScheduler({ db: second.db, clock: second.clock, creation: second.debates });
    const due = OWNERS * DUE_PER_OWNER;

    const idle: number[] = [];
    for (let i = 0; i < IDLE_PASSES + 5; i++) {
      const t0 = performance.now();
      if ((await one.runDue(100)).length !== 0) throw new Error('a run was due in the idle passes');
      if (i >= 5) idle.push(performance.now() - t0);
    }
    idle.sort((a, b) => a - b);
    const idleDetail = `a pass with nothing due among ${IDLE} active schedules (partial index on next_run_at); ${IDLE_PASSES} passes after 5 warm-up`;
    results.push(
      {
        name: 'scheduler.idle_pass.p50_ms',
        value: round(percentile(idle, 50)),
        unit: 'ms',
        better: 'lower',
        detail: idleDetail,
      },
      {
        name: 'scheduler.idle_pass.p99_ms',
        value: round(percentile(idle, 99)),
        unit: 'ms',
        better: 'lower',
        detail: idleDetail,
      },
    );

    for (const [label, schedulers] of [
      ['one_node', [one]],
      ['two_nodes', [one, two]],
    ] as const) {
      await makeDue(core);
      log(`${label}: ${due} due runs`);
      const t0 = performance.now();
      const made = await drain([...schedulers]);
      const seconds = (performance.now() - t0) / 1000;
      if (made !== due) throw new Error(`${label}: ${made} runs made for ${due} due`);
      results.push({
        name: `scheduler.${label}.runs_per_s`,
        value: round(made / seconds, 0),
        unit: 'runs/s',
        better: 'higher',
        detail: `${due} due runs of ${OWNERS} pro accounts (fast mode, credits debited, debate inserted, job queued in memory), ${schedulers.length} scheduler(s) on separate pools passing side by side, each run one transaction; ${seconds.toFixed(2)} s`,
      });
    }
    const [debates] = await core.db.execute<{ n: number }>('select count(*)::int as n from debates');
    if (debates?.n !== 2 * due) throw new Error(`${debates?.n} debates for ${2 * due} runs`);
  } finally {
    await second.close();
    await core.db.execute(`drop schema if exists "${env.DATABASE_SCHEMA}" cascade`);
    await core.close();
  }
  return results;
}

export const suite: Suite = {
  description:
    'scheduled debates: an idle pass over 20,000 schedules, due runs per second with one and two schedulers',
  optIn: true,
  run,
};
