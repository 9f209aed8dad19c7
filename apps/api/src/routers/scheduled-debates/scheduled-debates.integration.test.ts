import { type CreatedApiKey, ScheduledDebate, ScheduledDebatePage } from '@verdict/contracts';
import { createScheduler } from '@verdict/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createKey,
  expectError,
  type Harness,
  type RequestOptions,
  registerUser,
  startServer,
  type TestUser,
} from '../../testing/http-harness.ts';

const MISSING = '00000000-0000-4000-8000-000000000000';
const BASE = '/api/scheduled-debates';

const detailPaths = (error: { details?: { path: string }[] | undefined }) =>
  (error.details ?? []).map((d) => d.path);

describe('scheduled debates', () => {
  // Wednesday 2026-03-11, 10:00 UTC, moved by the tests that need another moment.
  let nowMs = Date.UTC(2026, 2, 11, 10, 0);
  const clock = { now: () => nowMs };
  let h: Harness;
  let alice: TestUser;
  let bob: TestUser;
  let aliceKey: CreatedApiKey;

  const as = (user: TestUser): RequestOptions => ({ cookie: user.cookie });
  const create = (user: TestUser, body: Record<string, unknown>) =>
    h.request('POST', BASE, {
      ...as(user),
      body: { question: 'Should we raise prices this quarter?', ...body },
    });
  const scheduleOf = async (user: TestUser, body: Record<string, unknown> = { frequency: 'daily' }) => {
    const res = await create(user, body);
    expect(res.status, res.text).toBe(201);
    return ScheduledDebate.parse(res.json);
  };
  const patch = (user: TestUser, id: string, body: Record<string, unknown>) =>
    h.request('PATCH', `${BASE}/${id}`, { ...as(user), body });
  const patched = async (user: TestUser, id: string, body: Record<string, unknown>) => {
    const res = await patch(user, id, body);
    expect(res.status, res.text).toBe(200);
    return ScheduledDebate.parse(res.json);
  };
  const list = async (user: TestUser, query = '') => {
    const res = await h.request('GET', `${BASE}${query}`, as(user));
    expect(res.status, res.text).toBe(200);
    return ScheduledDebatePage.parse(res.json);
  };

  beforeAll(async () => {
    h = await startServer({ coreOptions: { clock }, env: { CONCURRENT_DEBATES: '100' } });
    [alice, bob] = await Promise.all([registerUser(h), registerUser(h)]);
    aliceKey = await createKey(h, alice, { name: 'schedules' });
  });
  afterAll(async () => {
    await h.close();
  });

  describe('POST /api/scheduled-debates', () => {
    it('creates an active schedule with the defaults, its first run the next 09:00 UTC after now', async () => {
      const res = await h.request('POST', BASE, {
        key: aliceKey.key,
        body: { question: 'Should we hire a second designer?', frequency: 'daily' },
      });
      expect(res.status, res.text).toBe(201);
      const schedule = ScheduledDebate.parse(res.json);
      expect(Object.keys(res.json as object).sort()).toEqual(
        [
          'id',
          'userId',
          'question',
          'mode',
          'context',
          'frequency',
          'dayOfWeek',
          'dayOfMonth',
          'timeOfDay',
          'timezone',
          'active',
          'maxRuns',
          'runCount',
          'nextRunAt',
          'lastRunAt',
          'lastFailure',
          'createdAt',
          'updatedAt',
        ].sort(),
      );
      expect(schedule).toMatchObject({
        userId: alice.session.user.id,
        question: 'Should we hire a second designer?',
        mode: 'fast',
        context: null,
        frequency: 'daily',
        dayOfWeek: null,
        dayOfMonth: null,
        timeOfDay: '09:00',
        timezone: 'UTC',
        active: true,
        maxRuns: null,
        runCount: 0,
        lastRunAt: null,
        lastFailure: null,
        // 10:00 is past today's 09:00: tomorrow's.
        nextRunAt: '2026-03-12T09:00:00.000Z',
        createdAt: '2026-03-11T10:00:00.000Z',
      });
    });

    it('computes the first weekly and monthly runs in UTC, storing but not using the timezone', async () => {
      const weekly = await scheduleOf(alice, {
        frequency: 'weekly',
        dayOfWeek: 0,
        timeOfDay: '18:45',
        timezone: 'Asia/Tokyo',
        mode: 'thorough',
        context: 'Sales figures of the week',
        maxRuns: 10,
      });
      expect(weekly).toMatchObject({
        nextRunAt: '2026-03-15T18:45:00.000Z',
        timezone: 'Asia/Tokyo',
        mode: 'thorough',
        context: 'Sales figures of the week',
        maxRuns: 10,
      });
      const monthly = await scheduleOf(alice, { frequency: 'monthly', dayOfMonth: 31, timeOfDay: '00:00' });
      expect(monthly.nextRunAt).toBe('2026-03-31T00:00:00.000Z');
      nowMs = Date.UTC(2026, 3, 2, 12, 0);
      const inApril = await scheduleOf(alice, { frequency: 'monthly', dayOfMonth: 31 });
      expect(inApril.nextRunAt).toBe('2026-04-30T09:00:00.000Z');
      nowMs = Date.UTC(2026, 2, 11, 10, 0);
    });

    it('refuses weekly without dayOfWeek and monthly without dayOfMonth, naming the field', async () => {
      expect(
        detailPaths(expectError(await create(alice, { frequency: 'weekly' }), 'VALIDATION_ERROR')),
      ).toEqual(['dayOfWeek']);
      const monthly = await create(alice, { frequency: 'monthly', dayOfWeek: 3 });
      expect(detailPaths(expectError(monthly, 'VALIDATION_ERROR'))).toEqual(['dayOfMonth']);
    });

    it.each([
      ['a question under 10 characters', { question: 'Too short' }, 'question'],
      ['a question over 500 characters', { question: 'Q'.repeat(501) }, 'question'],
      ['context over 2000 characters', { context: 'c'.repeat(2001) }, 'context'],
      ['timeOfDay 24:00', { timeOfDay: '24:00' }, 'timeOfDay'],
      ['timeOfDay without its leading zero', { timeOfDay: '9:00' }, 'timeOfDay'],
      ['an unknown timezone', { timezone: 'Mars/Olympus_Mons' }, 'timezone'],
      ['an offset for a timezone', { timezone: '+01:00' }, 'timezone'],
      ['dayOfWeek 7', { frequency: 'weekly', dayOfWeek: 7 }, 'dayOfWeek'],
      ['dayOfMonth 0', { frequency: 'monthly', dayOfMonth: 0 }, 'dayOfMonth'],
      ['dayOfMonth 32', { frequency: 'monthly', dayOfMonth: 32 }, 'dayOfMonth'],
      ['maxRuns 0', { maxRuns: 0 }, 'maxRuns'],
      ['maxRuns 1001', { maxRuns: 1001 }, 'maxRuns'],
      ['an unknown mode', { mode: 'instant' }, 'mode'],
      ['an unknown frequency', { frequency: 'hourly' }, 'frequency'],
      ['an unknown field', { everyMinute: true }, ''],
    ])('refuses %s with 400 VALIDATION_ERROR', async (_, body, path) => {
      const error = expectError(await create(alice, { frequency: 'daily', ...body }), 'VALIDATION_ERROR');
      expect(detailPaths(error)).toContain(path);
    });

    it('accepts the bounds: 10 and 500 characters, 2000 of context, 00:00 and 23:59, maxRuns 1 and 1000', async () => {
      for (const body of [
        { question: 'Q'.repeat(10), timeOfDay: '00:00', maxRuns: 1 },
        { question: 'Q'.repeat(500), timeOfDay: '23:59', maxRuns: 1000, context: 'c'.repeat(2000) },
      ]) {
        expect((await create(alice, { frequency: 'daily', ...body })).status).toBe(201);
      }
    });

    it('answers 401 without credentials', async () => {
      expectError(
        await h.request('POST', BASE, { body: { question: 'Should we hire?', frequency: 'daily' } }),
        'UNAUTHORIZED',
      );
    });

    it('refuses a schedule, or resuming one, on a BYOK plan with 400 VALIDATION_ERROR: its runs would have no provider keys', async () => {
      const carol = await registerUser(h);
      const paused = await scheduleOf(carol, { frequency: 'daily' });
      await patched(carol, paused.id, { active: false });
      for (const plan of ['byok', 'byok_pro'] as const) {
        await h.core.accounts.setPlan(carol.session.user.id, plan);
        const refused = expectError(await create(carol, { frequency: 'daily' }), 'VALIDATION_ERROR');
        expect(refused.message).toMatch(/provider keys .* never stored/);
        expect(refused.details).toEqual([
          { path: '', message: refused.message, code: 'provider_keys_not_stored' },
        ]);
        const resume = expectError(await patch(carol, paused.id, { active: true }), 'VALIDATION_ERROR');
        expect(resume.details?.[0]?.code).toBe('provider_keys_not_stored');
      }
      expect((await list(carol)).total).toBe(1);
      // Changes that make no run due still go through.
      expect(
        await patched(carol, paused.id, { question: 'Should we raise prices next quarter?' }),
      ).toMatchObject({ active: false, question: 'Should we raise prices next quarter?' });
      await h.core.accounts.setPlan(carol.session.user.id, 'pro');
      expect((await patched(carol, paused.id, { active: true })).active).toBe(true);
    });
  });

  describe('GET /api/scheduled-debates', () => {
    it("pages the caller's schedules newest first, with totals, and filters by active", async () => {
      const carol = await registerUser(h);
      const made: string[] = [];
      for (let i = 0; i < 5; i++) {
        nowMs += 1000;
        made.push((await scheduleOf(carol)).id);
      }
      await patched(carol, made[1] as string, { active: false });
      await scheduleOf(bob);

      const first = await list(carol, '?limit=2');
      expect(first).toMatchObject({ page: 1, limit: 2, total: 5, totalPages: 3 });
      expect(first.schedules.map((s) => s.id)).toEqual([made[4], made[3]]);
      const last = await list(carol, '?limit=2&page=3');
      expect(last.schedules.map((s) => s.id)).toEqual([made[0]]);
      expect((await list(carol, '?page=4&limit=2')).schedules).toEqual([]);
      // The largest page the document allows is an empty page, not an offset the database refuses.
      expect((await list(carol, `?page=${Number.MAX_SAFE_INTEGER}&limit=100`)).schedules).toEqual([]);

      const paused = await list(carol, '?active=false');
      expect(paused.schedules.map((s) => s.id)).toEqual([made[1]]);
      expect(paused.total).toBe(1);
      const active = await list(carol, '?active=true');
      expect(active.total).toBe(4);
      expect(active.schedules.every((s) => s.active && s.userId === carol.session.user.id)).toBe(true);
      expect((await list(carol)).limit).toBe(20);
    });

    it.each([
      ['active=yes', 'active'],
      ['active=1', 'active'],
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['page=0', 'page'],
      ['page=1.5', 'page'],
    ])('refuses ?%s with 400 VALIDATION_ERROR', async (query, path) => {
      const error = expectError(await h.request('GET', `${BASE}?${query}`, as(alice)), 'VALIDATION_ERROR');
      expect(detailPaths(error)).toContain(path);
    });
  });

  describe('GET, PATCH and DELETE /api/scheduled-debates/:id', () => {
    it("shows a schedule to its owner only: another user's is 403, a missing one 404", async () => {
      const schedule = await scheduleOf(alice);
      const own = await h.request('GET', `${BASE}/${schedule.id}`, { key: aliceKey.key });
      expect(ScheduledDebate.parse(own.json)).toEqual(schedule);
      expectError(await h.request('GET', `${BASE}/${schedule.id}`, as(bob)), 'FORBIDDEN');
      expectError(await h.request('GET', `${BASE}/${MISSING}`, as(alice)), 'NOT_FOUND');
      expectError(await h.request('GET', `${BASE}/not-a-uuid`, as(alice)), 'VALIDATION_ERROR');
      expectError(await patch(bob, schedule.id, { question: 'Should bob take this over?' }), 'FORBIDDEN');
      expectError(await patch(alice, MISSING, { active: false }), 'NOT_FOUND');
      expectError(await h.request('DELETE', `${BASE}/${schedule.id}`, as(bob)), 'FORBIDDEN');
      expectError(await h.request('DELETE', `${BASE}/${MISSING}`, as(alice)), 'NOT_FOUND');
      // Bob's attempts changed nothing.
      expect(
        ScheduledDebate.parse((await h.request('GET', `${BASE}/${schedule.id}`, as(alice))).json),
      ).toEqual(schedule);
    });

    it('changes only the fields sent, keeping nextRunAt when no timing field changes', async () => {
      const schedule = await scheduleOf(alice, { frequency: 'daily', context: 'Old context', maxRuns: 5 });
      nowMs += 3_600_000;
      const changed = await patched(alice, schedule.id, {
        question: 'Should we raise prices next quarter instead?',
        mode: null,
        context: null,
        maxRuns: null,
        timeOfDay: '09:00',
      });
      expect(changed).toMatchObject({
        ...schedule,
        question: 'Should we raise prices next quarter instead?',
        mode: null,
        context: null,
        maxRuns: null,
        updatedAt: new Date(nowMs).toISOString(),
      });
      expect(changed.nextRunAt).toBe(schedule.nextRunAt);
      // An empty patch changes nothing, not even updatedAt.
      expect(await patched(alice, schedule.id, {})).toEqual(changed);
    });

    it('recomputes nextRunAt from now when a timing field changes', async () => {
      nowMs = Date.UTC(2026, 2, 11, 10, 0);
      const schedule = await scheduleOf(alice, { frequency: 'daily', dayOfWeek: 5 });
      expect(schedule.nextRunAt).toBe('2026-03-12T09:00:00.000Z');
      nowMs = Date.UTC(2026, 2, 11, 11, 0);
      expect((await patched(alice, schedule.id, { timeOfDay: '12:30' })).nextRunAt).toBe(
        '2026-03-11T12:30:00.000Z',
      );
      // Weekly with the dayOfWeek already stored (5, Friday).
      expect(await patched(alice, schedule.id, { frequency: 'weekly' })).toMatchObject({
        frequency: 'weekly',
        dayOfWeek: 5,
        nextRunAt: '2026-03-13T12:30:00.000Z',
      });
      expect((await patched(alice, schedule.id, { dayOfWeek: 3 })).nextRunAt).toBe(
        '2026-03-11T12:30:00.000Z',
      );
      expect((await patched(alice, schedule.id, { frequency: 'monthly', dayOfMonth: 31 })).nextRunAt).toBe(
        '2026-03-31T12:30:00.000Z',
      );
      const moved = await patched(alice, schedule.id, { timezone: 'Europe/Paris' });
      expect(moved).toMatchObject({ timezone: 'Europe/Paris', nextRunAt: '2026-03-31T12:30:00.000Z' });
    });

    it('refuses a change that leaves weekly without dayOfWeek or monthly without dayOfMonth', async () => {
      const daily = await scheduleOf(alice, { frequency: 'daily' });
      expect(
        detailPaths(expectError(await patch(alice, daily.id, { frequency: 'weekly' }), 'VALIDATION_ERROR')),
      ).toEqual(['dayOfWeek']);
      expect(
        detailPaths(expectError(await patch(alice, daily.id, { frequency: 'monthly' }), 'VALIDATION_ERROR')),
      ).toEqual(['dayOfMonth']);
      const weekly = await scheduleOf(alice, { frequency: 'weekly', dayOfWeek: 2 });
      expectError(await patch(alice, weekly.id, { dayOfWeek: null }), 'VALIDATION_ERROR');
      expectError(await patch(alice, weekly.id, { dayOfWeek: 7 }), 'VALIDATION_ERROR');
      expectError(await patch(alice, weekly.id, { active: 'false' }), 'VALIDATION_ERROR');
      // Nothing of a refused change was written.
      const read = await h.request('GET', `${BASE}/${weekly.id}`, as(alice));
      expect(ScheduledDebate.parse(read.json)).toEqual(weekly);
      // Leaving weekly, its dayOfWeek may go.
      expect(await patched(alice, weekly.id, { frequency: 'daily', dayOfWeek: null })).toMatchObject({
        frequency: 'daily',
        dayOfWeek: null,
      });
    });

    it('pauses without touching nextRunAt and resumes with nextRunAt computed from now', async () => {
      nowMs = Date.UTC(2026, 2, 11, 10, 0);
      const schedule = await scheduleOf(alice, { frequency: 'daily', timeOfDay: '10:30' });
      const paused = await patched(alice, schedule.id, { active: false });
      expect(paused).toMatchObject({ active: false, nextRunAt: '2026-03-11T10:30:00.000Z' });
      nowMs = Date.UTC(2026, 2, 20, 15, 0);
      expect(await patched(alice, schedule.id, { active: true })).toMatchObject({
        active: true,
        nextRunAt: '2026-03-21T10:30:00.000Z',
      });
      // Resuming an active schedule moves nothing.
      nowMs = Date.UTC(2026, 2, 21, 9, 0);
      expect((await patched(alice, schedule.id, { active: true })).nextRunAt).toBe(
        '2026-03-21T10:30:00.000Z',
      );
    });

    it('deactivates on reaching maxRuns, refuses to resume until the limit is raised or removed', async () => {
      nowMs = Date.UTC(2026, 2, 11, 8, 0);
      const scheduler = createScheduler({ db: h.core.db, clock, creation: h.core.debates });
      await h.core.billing.grantCredits(alice.session.user.id, 20);
      const schedule = await scheduleOf(alice, { frequency: 'daily', maxRuns: 2 });
      nowMs = Date.UTC(2026, 2, 11, 9, 0, 2);
      await scheduler.runDue(100);
      expect((await patched(alice, schedule.id, { maxRuns: 1 })).active).toBe(false);
      const refused = expectError(await patch(alice, schedule.id, { active: true }), 'VALIDATION_ERROR');
      expect(detailPaths(refused)).toEqual(['active']);
      expect(await patched(alice, schedule.id, { active: true, maxRuns: null })).toMatchObject({
        active: true,
        maxRuns: null,
        runCount: 1,
      });
    });

    it("deletes a schedule with 204; the debates it made stay, and it is gone for its owner's reads", async () => {
      nowMs = Date.UTC(2026, 2, 11, 8, 0);
      const scheduler = createScheduler({ db: h.core.db, clock, creation: h.core.debates });
      await h.core.billing.grantCredits(alice.session.user.id, 20);
      const schedule = await scheduleOf(alice, {
        frequency: 'daily',
        question: 'Should the schedule outlive this?',
      });
      nowMs = Date.UTC(2026, 2, 11, 9, 0, 2);
      const made = (await scheduler.runDue(100)).find((o) => o.scheduleId === schedule.id);
      expect(made?.kind).toBe('created');
      const debateId = made?.kind === 'created' ? made.debateId : '';

      const res = await h.request('DELETE', `${BASE}/${schedule.id}`, { key: aliceKey.key });
      expect(res.status, res.text).toBe(204);
      expect(res.text).toBe('');
      expectError(await h.request('GET', `${BASE}/${schedule.id}`, as(alice)), 'NOT_FOUND');
      expectError(await h.request('DELETE', `${BASE}/${schedule.id}`, as(alice)), 'NOT_FOUND');
      const debate = await h.request<{ question: string }>('GET', `/api/debates/${debateId}`, as(alice));
      expect(debate.status, debate.text).toBe(200);
      expect(debate.json.question).toBe('Should the schedule outlive this?');
    });
  });
});
