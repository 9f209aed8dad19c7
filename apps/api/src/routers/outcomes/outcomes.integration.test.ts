import type {
  CreatedDebate,
  DecisionScore,
  OutcomeHistory,
  OutcomeRecord,
  PendingOutcomes,
  Streaks,
} from '@verdict/contracts';
import { debateReaching, eventually, insertPendingDebate } from '@verdict/core/testing';
import type { EngineNode } from '@verdict/engine';
import { startTestEngine } from '@verdict/engine/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createKey,
  expectError,
  type Harness,
  registerUser,
  startServer,
  type TestUser,
} from '../../testing/http-harness.ts';

const TECH = 'Should we migrate our database to a managed cloud service this year?';
const HEALTH = 'Should the clinic extend its opening hours for patients?';
const MISSING = '00000000-0000-4000-8000-000000000000';
const brier = (confidence: number, observed: number) => Number(((confidence - observed) ** 2).toFixed(4));

describe('outcomes, scores and streaks', () => {
  let h: Harness;
  let engine: EngineNode;
  let alice: TestUser;
  let bob: TestUser;

  const create = async (user: TestUser, question: string) => {
    const res = await h.request<CreatedDebate>('POST', '/api/debates', {
      cookie: user.cookie,
      body: { question, skipCache: true },
    });
    expect(res.status, res.text).toBe(201);
    const done = await debateReaching(h.core, res.json.debateId);
    expect(done?.status).toBe('completed');
    return res.json.debateId;
  };
  const outcomeOf = (user: TestUser, id: string) =>
    h.request<OutcomeRecord>('GET', `/api/debates/${id}/outcome`, { cookie: user.cookie });
  const record = (user: TestUser, id: string, body: unknown) =>
    h.request<OutcomeRecord>('POST', `/api/debates/${id}/outcome`, { cookie: user.cookie, body });
  const score = async (user: TestUser) =>
    (await h.request<DecisionScore>('GET', '/api/scores/me', { cookie: user.cookie })).json;
  const outboxEvents = (id: string) =>
    h.core.db.execute<{ event: string }>(
      'select event from webhook_outbox where debate_id = ? order by created_at',
      [id],
    );

  beforeAll(async () => {
    h = await startServer({ env: { CONCURRENT_DEBATES: '50' } });
    engine = startTestEngine(h.core, { firstTokenMs: 1 }, 4);
    alice = await registerUser(h);
    bob = await registerUser(h);
    await h.core.billing.grantCredits(alice.session.user.id, 100);
  });
  afterAll(async () => {
    await engine.stop();
    await h.close();
  });

  it('opens a pending outcome when a debate completes, with the verdict it scores and its domain', async () => {
    const id = await create(alice, TECH);
    const res = await outcomeOf(alice, id);
    expect(res.status).toBe(200);
    const debate = await h.request<{ verdict: { confidence: number; recommendation: string } }>(
      'GET',
      `/api/debates/${id}`,
      { cookie: alice.cookie },
    );
    expect(res.json).toMatchObject({
      debateId: id,
      question: TECH,
      domain: 'technology',
      outcomeStatus: 'pending',
      outcomeNotes: null,
      satisfactionScore: null,
      reminderAt: null,
      recordedAt: null,
      recommendation: debate.json.verdict.recommendation,
    });
    expect(res.json.confidence).toBe(debate.json.verdict.confidence);
    const pending = await h.request<PendingOutcomes>('GET', '/api/outcomes/pending', {
      cookie: alice.cookie,
    });
    expect(pending.json.outcomes.map((o) => o.debateId)).toContain(id);
  });

  it("answers 404 for a debate with no record, another user's, or none at all, on every route", async () => {
    const id = await create(alice, HEALTH);
    for (const [user, target] of [
      [bob, id],
      [alice, MISSING],
    ] as const) {
      expectError(await outcomeOf(user, target), 'NOT_FOUND');
      expectError(await record(user, target, { outcomeStatus: 'correct' }), 'NOT_FOUND');
      expectError(
        await h.request('POST', `/api/debates/${target}/outcome/skip`, { cookie: user.cookie }),
        'NOT_FOUND',
      );
      expectError(
        await h.request('PATCH', `/api/debates/${target}/outcome/reminder`, {
          cookie: user.cookie,
          body: { reminderAt: '2027-01-01T09:00:00Z' },
        }),
        'NOT_FOUND',
      );
    }
  });

  it('refuses bad outcomes with 400 and stores nothing', async () => {
    const id = await create(alice, TECH);
    for (const body of [
      {},
      { outcomeStatus: 'maybe' },
      { outcomeStatus: 'correct', outcomeNotes: 'x'.repeat(501) },
      { outcomeStatus: 'correct', satisfactionScore: 0 },
      { outcomeStatus: 'correct', satisfactionScore: 6 },
      { outcomeStatus: 'correct', satisfactionScore: 4.5 },
      { outcomeStatus: 'correct', satisfactionScore: '5' },
    ]) {
      expectError(await record(alice, id, body), 'VALIDATION_ERROR');
    }
    for (const reminderAt of ['tomorrow', '2027-13-01T00:00:00Z', '2027-01-01', '']) {
      expectError(
        await h.request('PATCH', `/api/debates/${id}/outcome/reminder`, {
          cookie: alice.cookie,
          body: { reminderAt },
        }),
        'VALIDATION_ERROR',
      );
    }
    expect((await outcomeOf(alice, id)).json).toMatchObject({ outcomeStatus: 'pending', reminderAt: null });
    expect((await outboxEvents(id)).map((e) => e.event)).toEqual(['debate.created', 'debate.completed']);
  });

  it('records an outcome, then corrects it: outcome.recorded then outcome.updated, and the score follows within 2 s', async () => {
    const id = await create(alice, TECH);
    const { confidence } = (await outcomeOf(alice, id)).json;
    const before = await score(alice);
    const first = await record(alice, id, {
      outcomeStatus: 'correct',
      outcomeNotes: 'It paid off.',
      satisfactionScore: 5,
    });
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({
      outcomeStatus: 'correct',
      outcomeNotes: 'It paid off.',
      satisfactionScore: 5,
    });
    expect(first.json.recordedAt).not.toBeNull();
    const recordedAt = Date.now();
    const moved = await eventually(
      () => score(alice),
      (s) => s.totalResolved === before.totalResolved + 1,
      2000,
    );
    expect(Date.now() - recordedAt).toBeLessThan(2000);
    expect(moved.streak).toBe(before.streak + 1);

    const second = await record(alice, id, { outcomeStatus: 'wrong' });
    expect(second.json).toMatchObject({
      outcomeStatus: 'wrong',
      outcomeNotes: null,
      satisfactionScore: null,
    });
    expect((await outboxEvents(id)).map((e) => e.event)).toEqual([
      'debate.created',
      'debate.completed',
      'outcome.recorded',
      'outcome.updated',
    ]);
    const corrected = await eventually(
      () => score(alice),
      (s) => s.streak === 0,
      2000,
    );
    expect(corrected.totalResolved).toBe(before.totalResolved + 1);

    const history = await h.request<OutcomeHistory>('GET', '/api/outcomes/history?limit=1', {
      cookie: alice.cookie,
    });
    expect(history.json).toMatchObject({ limit: 1, offset: 0 });
    expect(history.json.outcomes.map((o) => [o.debateId, o.outcomeStatus])).toEqual([[id, 'wrong']]);
    const pending = await h.request<PendingOutcomes>('GET', '/api/outcomes/pending', {
      cookie: alice.cookie,
    });
    expect(pending.json.outcomes.map((o) => o.debateId)).not.toContain(id);
    // Her only resolved outcome, now wrong, weighs (confidence − 0)².
    expect(before.totalResolved).toBe(0);
    expect(corrected.brierScore).toBe(brier(confidence, 0));
  });

  it('computes the score from resolved outcomes only: too_early and skipped never count', async () => {
    const carol = await registerUser(h);
    await h.core.billing.grantCredits(carol.session.user.id, 100);
    const [right, partly, early, skipped] = [
      await create(carol, TECH),
      await create(carol, HEALTH),
      await create(carol, TECH),
      await create(carol, HEALTH),
    ];
    const confidenceOf = async (id: string) => (await outcomeOf(carol, id)).json.confidence;
    expect((await record(carol, right, { outcomeStatus: 'correct' })).status).toBe(200);
    expect((await record(carol, partly, { outcomeStatus: 'partially_correct' })).status).toBe(200);
    expect((await record(carol, early, { outcomeStatus: 'too_early' })).status).toBe(200);
    const skip = await h.request<OutcomeRecord>('POST', `/api/debates/${skipped}/outcome/skip`, {
      cookie: carol.cookie,
    });
    expect(skip.json.outcomeStatus).toBe('skipped');
    const s = await eventually(
      () => score(carol),
      (x) => x.totalResolved === 2 && x.totalTracked === 4,
      2000,
    );
    const briers = [brier(await confidenceOf(right), 1), brier(await confidenceOf(partly), 0.5)];
    const exact = ((await confidenceOf(right)) - 1) ** 2 / 2 + ((await confidenceOf(partly)) - 0.5) ** 2 / 2;
    expect(s.brierScore).toBeCloseTo(exact, 4);
    expect(s.accuracyPercentage).toBeCloseTo((1 - exact) * 100, 2);
    expect(s.streak).toBe(0); // the most recent resolved one was partially correct
    expect(s.domainScores).toEqual({ technology: briers[0], health: briers[1] });

    const pending = await h.request<PendingOutcomes>('GET', '/api/outcomes/pending', {
      cookie: carol.cookie,
    });
    expect(pending.json.outcomes).toEqual([]);
    const calibration = await h.request<unknown[]>('GET', '/api/scores/me/calibration', {
      cookie: carol.cookie,
    });
    expect(calibration.json).toEqual([]); // fewer than 5 resolved
    const domains = await h.request<{ domain: string; sampleSize: number; trend: string }[]>(
      'GET',
      '/api/scores/me/domains',
      { cookie: carol.cookie },
    );
    expect(domains.json.map((d) => [d.domain, d.sampleSize, d.trend]).sort()).toEqual([
      ['health', 1, 'stable'],
      ['technology', 1, 'stable'],
    ]);
    const trend = await h.request<{ date: string; sampleSize: number }[]>(
      'GET',
      '/api/scores/me/trend?days=7',
      {
        cookie: carol.cookie,
      },
    );
    expect(trend.json.at(-1)).toMatchObject({
      date: `${new Date().toISOString().slice(0, 10)}T00:00:00.000Z`,
      sampleSize: 2,
    });
    for (const days of ['0', 'abc', '3651']) {
      expectError(
        await h.request('GET', `/api/scores/me/trend?days=${days}`, { cookie: carol.cookie }),
        'VALIDATION_ERROR',
      );
    }

    const history = await h.request<OutcomeHistory>('GET', '/api/outcomes/history?domain=health', {
      cookie: carol.cookie,
    });
    expect(history.json.outcomes.map((o) => o.debateId)).toEqual([partly]);
    expect(history.json.total).toBe(1);
    for (const query of ['domain=sports', 'limit=0', 'limit=101', 'offset=-1']) {
      expectError(
        await h.request('GET', `/api/outcomes/history?${query}`, { cookie: carol.cookie }),
        'VALIDATION_ERROR',
      );
    }
  });

  it("takes a permanently deleted debate out of its owner's score at once", async () => {
    const frank = await registerUser(h);
    await h.core.billing.grantCredits(frank.session.user.id, 100);
    const id = await create(frank, TECH);
    expect((await record(frank, id, { outcomeStatus: 'correct' })).status).toBe(200);
    await eventually(
      () => score(frank),
      (s) => s.totalResolved === 1,
      2000,
    );
    const key = await createKey(h, frank, { name: 'deleter' });
    const deleted = await h.request('DELETE', `/v1/verdicts/${id}`, { key: key.key });
    expect(deleted.status).toBe(200);
    // No waiting for the worker: the delete recomputed the score in its own transaction.
    expect(await score(frank)).toMatchObject({
      totalTracked: 0,
      totalResolved: 0,
      brierScore: 0.5,
      streak: 0,
    });
  });

  it('lists due reminders first in the pending list', async () => {
    const dave = await registerUser(h);
    await h.core.billing.grantCredits(dave.session.user.id, 100);
    const older = await create(dave, TECH);
    const newer = await create(dave, HEALTH);
    const later = await create(dave, TECH);
    const remind = (id: string, reminderAt: string) =>
      h.request<OutcomeRecord>('PATCH', `/api/debates/${id}/outcome/reminder`, {
        cookie: dave.cookie,
        body: { reminderAt },
      });
    expect((await remind(newer, '2020-01-01T09:00:00+02:00')).json.reminderAt).toBe(
      '2020-01-01T07:00:00.000Z',
    );
    expect((await remind(later, '2999-01-01T00:00:00Z')).status).toBe(200);
    const pending = await h.request<PendingOutcomes>('GET', '/api/outcomes/pending', { cookie: dave.cookie });
    expect(pending.json.outcomes.map((o) => o.debateId)).toEqual([newer, later, older]);
  });

  it('counts streaks of UTC days with a debate created, and milestones from the debate that reached them', async () => {
    const erin = await registerUser(h);
    const ids: string[] = [];
    for (let i = 0; i < 11; i++) {
      const { id } = await insertPendingDebate(h.core, {
        ownerId: erin.session.user.id,
        question: `Streak debate ${i}: should we keep going?`,
        agents: 2,
        rounds: 1,
      });
      ids.push(id);
    }
    // Days: 5 and 4 days ago (a run of 2), then yesterday and today (the current run of 2); one deleted.
    const daysAgo = [5, 5, 4, 1, 1, 1, 0, 0, 0, 0, 0];
    for (const [i, id] of ids.entries()) {
      await h.core.db.execute(
        `update debates set created_at = date_trunc('day', now() at time zone 'UTC') at time zone 'UTC'
           - make_interval(days => ?) + make_interval(mins => ?) where id = ?`,
        [daysAgo[i], i, id],
      );
    }
    await h.core.db.execute('update debates set deleted_at = now() where id = ?', [ids[10]]);
    const res = await h.request<Streaks>('GET', '/api/streaks', { cookie: erin.cookie });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ currentStreak: 2, longestStreak: 2, totalDebates: 10 });
    const [tenth] = await h.core.db.execute<{ created_at: string }>(
      'select created_at from debates where id = ?',
      [ids[9]],
    );
    expect(res.json.milestones[0]).toEqual({
      count: 10,
      reached: true,
      reachedAt: new Date(tenth!.created_at).toISOString(),
    });
    expect(res.json.milestones.slice(1).map((m) => [m.count, m.reached])).toEqual([
      [25, false],
      [50, false],
      [100, false],
      [250, false],
      [500, false],
    ]);
    const fresh = await registerUser(h);
    expect((await h.request<Streaks>('GET', '/api/streaks', { cookie: fresh.cookie })).json).toMatchObject({
      currentStreak: 0,
      longestStreak: 0,
      totalDebates: 0,
    });
  });

  it('answers every route 401 without credentials', async () => {
    for (const [method, path] of [
      ['GET', '/api/outcomes/pending'],
      ['GET', '/api/outcomes/history'],
      ['GET', '/api/scores/me'],
      ['GET', '/api/scores/me/trend'],
      ['GET', '/api/scores/me/calibration'],
      ['GET', '/api/scores/me/domains'],
      ['GET', '/api/streaks'],
      ['GET', `/api/debates/${MISSING}/outcome`],
    ] as const) {
      expectError(await h.request(method, path), 'UNAUTHORIZED');
    }
  });
});
