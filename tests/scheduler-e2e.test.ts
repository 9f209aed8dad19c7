import { setTimeout as sleep } from 'node:timers/promises';
import { eventually } from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectBody } from './support/api-client.ts';
import { type RunningEngine, startEngine } from './support/processes.ts';
import {
  type DistributedStack,
  MODES,
  type ProUser,
  type Stack,
  signUpPro,
  startDistributedStack,
  startStack,
} from './support/stack.ts';

// A schedule's life over HTTP, through the client generated from the served document, in each mode.
describe.each(MODES)('scheduled debates end to end (%s)', (mode) => {
  let stack: Stack;
  let owner: ProUser;

  beforeAll(async () => {
    stack = await startStack(mode, 'schedules');
    owner = await signUpPro(stack, 'planner');
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('creates a schedule, lists and reads it, pauses it with the same next run, and deletes it', async () => {
    const created = expectBody(
      await owner.client.POST('/api/scheduled-debates', {
        body: {
          question: 'Should the weekly planning question be asked again?',
          frequency: 'weekly',
          dayOfWeek: 1,
          timeOfDay: '09:00',
          timezone: 'Europe/Paris',
          mode: 'fast',
        },
      }),
      201,
    );
    expect(created).toMatchObject({ active: true, runCount: 0, lastRunAt: null, frequency: 'weekly' });
    expect(created.nextRunAt > new Date().toISOString()).toBe(true);
    const path = { id: created.id };
    const listed = expectBody(await owner.client.GET('/api/scheduled-debates'), 200);
    expect(listed.schedules.map((s) => s.id)).toEqual([created.id]);
    const read = expectBody(await owner.client.GET('/api/scheduled-debates/{id}', { params: { path } }), 200);
    expect(read).toEqual(created);
    const paused = expectBody(
      await owner.client.PATCH('/api/scheduled-debates/{id}', { params: { path }, body: { active: false } }),
      200,
    );
    expect(paused).toMatchObject({ active: false, nextRunAt: created.nextRunAt });
    const deleted = await owner.client.DELETE('/api/scheduled-debates/{id}', { params: { path } });
    expect(deleted.response.status).toBe(204);
    const gone = await owner.client.GET('/api/scheduled-debates/{id}', { params: { path } });
    expect(gone.response.status).toBe(404);
  });
});

// Scheduled debates with the API and two engine nodes as separate processes on PostgreSQL and NATS. Every
// node runs the scheduler; while they make the due runs, one of them is SIGKILLed at a random moment and
// replaced. Each due run must still come to exactly one debate: none twice (two nodes, or a run redone after
// a kill), none missing (a run the dead node had begun). Distributed only: it needs two engine nodes, one
// killed while the other goes on, and a clock moved in the database (the API has no way to move it), which
// nothing can open next to a running embedded server.
describe('scheduled debates with two engine nodes, one killed while the scheduler runs', () => {
  const SCHEDULES = 40;
  const WAVES = 4;
  let stack: DistributedStack;
  let owner: ProUser;
  const engines: RunningEngine[] = [];
  const everStarted: RunningEngine[] = [];
  const scheduleIds: string[] = [];
  const questionOf = new Map<string, string>();

  const launch = async () => {
    const engine = await startEngine(stack.env);
    everStarted.push(engine);
    return engine;
  };

  beforeAll(async () => {
    // A short period, so each wave is picked up at once and a kill lands while the nodes make its runs.
    stack = await startDistributedStack('sched', {
      ENGINE_SCHEDULER_INTERVAL_MS: '100',
      CONCURRENT_DEBATES: '1000',
    });
    everStarted.push(stack.engine);
    engines.push(stack.engine, await launch());
    owner = await signUpPro(stack, 'scheduler');
    await Promise.all([
      stack.grantCredits(owner.email, SCHEDULES * WAVES),
      stack.setRateLimit(owner.email, 100_000),
    ]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all(everStarted.map((engine) => engine.stop('SIGKILL')));
    await stack?.stop();
  });

  /** Runs made so far over all the owner's schedules (the runCounts, read directly: polled every few ms). */
  const runsMade = async () =>
    (
      await stack.db.core.db.execute<{ n: number }>(
        'select coalesce(sum(run_count), 0)::int as n from scheduled_debates where user_id = ?',
        [owner.userId],
      )
    )[0]?.n ?? 0;

  /** The owner's schedules as the API lists them. */
  const schedules = async () => {
    const page = expectBody(
      await owner.client.GET('/api/scheduled-debates', { params: { query: { limit: 100 } } }),
      200,
    );
    return page.schedules;
  };

  it('makes each due run exactly once whichever node runs it and whichever dies', async () => {
    for (let i = 0; i < SCHEDULES; i++) {
      const question = `Should scheduled question number ${i} be asked again?`;
      const created = expectBody(
        await owner.client.POST('/api/scheduled-debates', {
          body: {
            question,
            frequency: i % 2 === 0 ? 'daily' : 'monthly',
            dayOfMonth: 31,
            timeOfDay: '06:00',
          },
        }),
        201,
      );
      expect(created.nextRunAt > new Date().toISOString()).toBe(true);
      scheduleIds.push(created.id);
      questionOf.set(created.id, question);
    }

    /** Kills that left runs of their wave still to make. */
    let midWaveKills = 0;
    for (let wave = 1; wave <= WAVES; wave++) {
      // Their run time comes (the API has no way to move a clock): every schedule falls due at once.
      await stack.db.core.db.execute('update scheduled_debates set next_run_at = now() where user_id = ?', [
        owner.userId,
      ]);
      // The kill lands as soon as the nodes have begun this wave's runs, while they are making the rest.
      const madeBefore = (wave - 1) * SCHEDULES;
      const deadline = Date.now() + 15_000;
      while ((await runsMade()) === madeBefore) {
        if (Date.now() > deadline) throw new Error(`wave ${wave}: no node began the due runs within 15 s`);
        await sleep(2);
      }
      const index = Math.floor(Math.random() * engines.length);
      await (engines[index] as RunningEngine).stop('SIGKILL');
      if ((await runsMade()) < madeBefore + SCHEDULES) midWaveKills += 1;
      engines[index] = await launch();
      const counted = await eventually(
        schedules,
        (list) => list.length === SCHEDULES && list.every((s) => s.runCount >= wave),
        30_000,
      );
      expect(counted.map((s) => s.runCount)).toEqual(Array(SCHEDULES).fill(wave));
      expect(counted.every((s) => s.lastFailure === null && s.active)).toBe(true);
      // The next run is the schedule's own again, computed from the moment of the run.
      expect(counted.every((s) => s.nextRunAt > (s.lastRunAt ?? ''))).toBe(true);
    }
    expect(midWaveKills).toBeGreaterThan(0);

    // The debates as the owner lists them: each schedule's question exactly once per wave.
    const questions: string[] = [];
    for (let page = 1; ; page++) {
      const listed = expectBody(
        await owner.client.GET('/api/debates', { params: { query: { page, limit: 100 } } }),
        200,
      );
      questions.push(...listed.debates.map((d) => d.question));
      if (page >= listed.totalPages) break;
    }
    const perQuestion = new Map<string, number>();
    for (const question of questions) perQuestion.set(question, (perQuestion.get(question) ?? 0) + 1);
    for (const id of scheduleIds) expect(perQuestion.get(questionOf.get(id) ?? ''), id).toBe(WAVES);
    expect(questions).toHaveLength(SCHEDULES * WAVES);

    // Pausing one through PATCH: it reads back inactive, with the same next run.
    const first = scheduleIds[0] as string;
    const before = expectBody(
      await owner.client.GET('/api/scheduled-debates/{id}', { params: { path: { id: first } } }),
      200,
    );
    const paused = expectBody(
      await owner.client.PATCH('/api/scheduled-debates/{id}', {
        params: { path: { id: first } },
        body: { active: false },
      }),
      200,
    );
    expect(paused).toMatchObject({ active: false, nextRunAt: before.nextRunAt, runCount: WAVES });

    // Deleting a schedule stops it and keeps its debates.
    const deleted = await owner.client.DELETE('/api/scheduled-debates/{id}', {
      params: { path: { id: first } },
    });
    expect(deleted.response.status).toBe(204);
    const gone = await owner.client.GET('/api/scheduled-debates/{id}', { params: { path: { id: first } } });
    expect(gone.response.status).toBe(404);
    const after = expectBody(
      await owner.client.GET('/api/debates', { params: { query: { limit: 100 } } }),
      200,
    );
    expect(after.total).toBe(SCHEDULES * WAVES);
  }, 180_000);
});
