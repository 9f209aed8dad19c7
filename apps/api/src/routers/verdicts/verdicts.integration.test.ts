import type { CreatedDebate, DebatePage, VerdictDetail } from '@verdict/contracts';
import { debateReaching, readDebate } from '@verdict/core/testing';
import type { EngineNode } from '@verdict/engine';
import { startTestEngine } from '@verdict/engine/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createKey,
  expectError,
  type Harness,
  registerUser,
  startServer,
} from '../../testing/http-harness.ts';

const MISSING = '00000000-0000-4000-8000-000000000000';

describe('the /v1 verdict routes', () => {
  let h: Harness;
  let engine: EngineNode;
  let key: string;
  let otherKey: string;
  let ownerId: string;
  let ownerCookie: string;

  const create = async (question: string, body: Record<string, unknown> = {}, as = key) => {
    const res = await h.request<CreatedDebate>('POST', '/v1/verdicts', {
      key: as,
      body: { question, mode: 'fast', ...body },
    });
    expect(res.status).toBe(201);
    return res.json.debateId;
  };
  const finished = (id: string) => debateReaching(h.core, id);

  beforeAll(async () => {
    h = await startServer({ env: { CONCURRENT_DEBATES: '50' } });
    engine = startTestEngine(h.core, { firstTokenMs: 150 }, 8);
    const owner = await registerUser(h);
    ownerId = owner.session.user.id;
    ownerCookie = owner.cookie;
    await h.core.billing.grantCredits(ownerId, 100);
    await h.core.accounts.setPlan(ownerId, 'pro'); // 120 requests a minute
    key = (await createKey(h, owner)).key;
    otherKey = (await createKey(h, await registerUser(h))).key;
  });
  afterAll(async () => {
    await engine.stop();
    await h.close();
  });

  it('returns the debate and the full public verdict, with confidence as a whole-number percent', async () => {
    const id = await create('Should we sunset the legacy mobile app?');
    await finished(id);
    const res = await h.request<VerdictDetail>('GET', `/v1/verdicts/${id}`, { key });
    expect(res.status).toBe(200);
    expect(res.json.debate).toMatchObject({ id, status: 'completed', ownerId });
    expect(Number.isInteger(res.json.verdict?.confidence)).toBe(true);
    expect(res.json.verdict?.confidence).toBeGreaterThanOrEqual(0);
    expect(res.json.verdict?.confidence).toBeLessThanOrEqual(100);
    expect(res.json.verdict).toMatchObject({
      nextSteps: expect.any(Array),
      revisitTriggers: expect.any(Array),
    });
    expect(res.json.debate.verdict?.confidence).toBeLessThanOrEqual(1); // the debate object keeps 0–1
    expectError(await h.request('GET', `/v1/verdicts/${id}`, { key: otherKey }), 'NOT_FOUND');
    expectError(await h.request('GET', `/v1/verdicts/${MISSING}`, { key }), 'NOT_FOUND');
  });

  it('gives the dashboard the same full verdict at /api/debates/:id/verdict, with a session cookie', async () => {
    const id = await create('Should we move the data warehouse to columnar storage?');
    const running = await h.request<VerdictDetail>('GET', `/api/debates/${id}/verdict`, {
      cookie: ownerCookie,
    });
    expect(running.status).toBe(200);
    expect(running.json.verdict === null).toBe(running.json.debate.status !== 'completed');
    await finished(id);
    const v1 = await h.request<VerdictDetail>('GET', `/v1/verdicts/${id}`, { key });
    const dashboard = await h.request<VerdictDetail>('GET', `/api/debates/${id}/verdict`, {
      cookie: ownerCookie,
    });
    expect(dashboard.status).toBe(200);
    expect(dashboard.json.verdict).toMatchObject({
      narrative: expect.any(String),
      decisionMatrix: expect.any(Array),
    });
    expect(dashboard.json).toEqual(v1.json);
    expectError(await h.request('GET', `/api/debates/${id}/verdict`, { key: otherKey }), 'NOT_FOUND');
  });

  it('lists with paging, filters by status and mode, and searches within questions', async () => {
    const a = await create('Adopt GraphQL for the public API?');
    const b = await create('Adopt a four-day week?', { mode: 'balanced' });
    await Promise.all([finished(a), finished(b)]);
    const search = await h.request<DebatePage>('GET', '/v1/verdicts?search=graphql', { key });
    expect(search.json.debates.map((d) => d.id)).toEqual([a]);
    const balanced = await h.request<DebatePage>('GET', '/v1/verdicts?mode=balanced', { key });
    expect(balanced.json.debates.map((d) => d.id)).toEqual([b]);
    const wildcard = await h.request<DebatePage>('GET', '/v1/verdicts?search=%25', { key });
    expect(wildcard.json.total).toBe(0); // % is searched as text, not as a wildcard
    const paged = await h.request<DebatePage>('GET', '/v1/verdicts?limit=1&sortOrder=asc', { key });
    expect(paged.json.limit).toBe(1);
    expect(paged.json.totalPages).toBe(paged.json.total);
    expectError(await h.request('GET', '/v1/verdicts?status=paused', { key }), 'VALIDATION_ERROR');
    const others = await h.request<DebatePage>('GET', '/v1/verdicts', { key: otherKey });
    expect(others.json.total).toBe(0);
  });

  it('deletes for good, cancelling a running debate; a repeat answers 200 to the owner and 404 to others', async () => {
    const id = await create('Migrate the warehouse to the cloud?', { mode: 'thorough' });
    await debateReaching(h.core, id, { statuses: ['running'] });
    expectError(await h.request('DELETE', `/v1/verdicts/${id}`, { key: otherKey }), 'NOT_FOUND');
    const removed = await h.request('DELETE', `/v1/verdicts/${id}`, { key });
    expect(removed.status).toBe(200);
    expect(removed.json).toEqual({ id, deleted: true });
    expect(engine.active.has(id)).toBe(false);
    expect(await readDebate(h.core, id)).toBeNull();
    const rows = await h.core.db.execute('select 1 from debate_events where debate_id = ?', [id]);
    expect(rows).toHaveLength(0);
    expect((await h.request('DELETE', `/v1/verdicts/${id}`, { key })).status).toBe(200);
    expectError(await h.request('DELETE', `/v1/verdicts/${id}`, { key: otherKey }), 'NOT_FOUND');
    expectError(await h.request('GET', `/v1/verdicts/${id}`, { key }), 'NOT_FOUND');
  });

  it('cancels a running debate deleted by its id in capitals, and answers with the id in its canonical form', async () => {
    const id = await create('Move the data centre to another region?', { mode: 'thorough' });
    await debateReaching(h.core, id, { statuses: ['running'] });
    const removed = await h.request('DELETE', `/v1/verdicts/${id.toUpperCase()}`, { key });
    expect(removed.status).toBe(200);
    expect(removed.json).toEqual({ id, deleted: true });
    expect(engine.active.has(id)).toBe(false);
    expect(await readDebate(h.core, id)).toBeNull();
  });
});
