import type { CreatedDebate, DebateEstimate, DebateObject } from '@verdict/contracts';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, registerUser, startServer, type TestUser } from '../../testing/http-harness.ts';

// No engine runs here: created debates stay pending; what is compared is what the create took.
describe('estimating a debate', () => {
  let h: Harness;
  const balance = async (user: TestUser) =>
    (await h.core.accounts.findUser(user.session.user.id))?.creditBalance ?? Number.NaN;
  const setBalance = (user: TestUser, credits: number) =>
    h.core.db.execute('update users set credit_balance = ? where id = ?', [credits, user.session.user.id]);
  const debatesOf = async (user: TestUser) =>
    Number(
      (
        await h.core.db.execute<{ n: number }>('select count(*)::int as n from debates where owner_id = ?', [
          user.session.user.id,
        ])
      )[0]?.n,
    );

  beforeAll(async () => {
    h = await startServer({ env: { FREE_MONTHLY_DEBATES: '1', CONCURRENT_DEBATES: '500' } });
  });
  afterAll(async () => {
    await h.close();
  });

  it('charges what the create then charges, and says who pays, for any plan, balance and mode', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('free' as const, 'pro' as const),
        fc.integer({ min: 0, max: 10 }),
        fc.constantFrom(undefined, 'fast' as const, 'balanced' as const, 'thorough' as const),
        fc.boolean(),
        // A panel of the caller's own, in part or whole, or the mode's.
        fc.option(fc.integer({ min: 2, max: 7 }), { nil: undefined }),
        fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }),
        async (plan, credits, mode, freeUsed, agentCount, maxRounds) => {
          const user = await registerUser(h);
          await h.core.accounts.setPlan(user.session.user.id, plan);
          await setBalance(user, credits);
          const body = {
            question: `Should we estimate this, at ${credits} credits?`,
            skipCache: true,
            mode,
            agentCount,
            maxRounds,
          };
          if (freeUsed) {
            // The month's one free debate, taken at a balance of 0.
            await setBalance(user, 0);
            await h.request('POST', '/api/debates', { cookie: user.cookie, body: { ...body, mode: 'fast' } });
            await setBalance(user, credits);
          }
          const made = await debatesOf(user);
          const estimate = await h.request<DebateEstimate>('POST', '/api/debates/estimate', {
            cookie: user.cookie,
            body,
          });
          expect(estimate.status, estimate.text).toBe(200);
          expect(await balance(user)).toBe(credits);
          expect(await debatesOf(user)).toBe(made);
          const created = await h.request<CreatedDebate>('POST', '/api/debates', {
            cookie: user.cookie,
            body,
          });
          if (estimate.json.refusal) {
            expect(estimate.json).toMatchObject({ charge: 0, fundingSource: null });
            expect(created.json).toMatchObject({ error: { code: estimate.json.refusal.code } });
            return;
          }
          expect(created.status, created.text).toBe(201);
          expect(credits - (await balance(user))).toBe(estimate.json.charge);
          const debate = await h.request<DebateObject>('GET', `/api/debates/${created.json.debateId}`, {
            cookie: user.cookie,
          });
          expect(debate.json.fundingSource).toBe(estimate.json.fundingSource);
          expect(debate.json.mode).toBe(estimate.json.mode);
          const [panel] = await h.core.db.execute<{ agents: number; rounds: number }>(
            'select requested_agents as agents, requested_rounds as rounds from debates where id = ?',
            [created.json.debateId],
          );
          expect(panel).toEqual({ agents: estimate.json.agents, rounds: estimate.json.rounds });
        },
      ),
      { numRuns: 25 },
    );
  });

  it('answers the cached debate, at no charge, when an identical one answered recently', async () => {
    const user = await registerUser(h);
    const body = { question: 'Should we keep the cache warm for this question?' };
    const created = await h.request<CreatedDebate>('POST', '/api/debates', { cookie: user.cookie, body });
    await h.core.db.execute("update debates set status = 'completed', completed_at = now() where id = ?", [
      created.json.debateId,
    ]);
    const estimate = await h.request<DebateEstimate>('POST', '/api/debates/estimate', {
      cookie: user.cookie,
      body,
    });
    expect(estimate.json).toMatchObject({ cached: true, charge: 0, credits: 1, fundingSource: null });
    const again = await h.request<CreatedDebate>('POST', '/api/debates', { cookie: user.cookie, body });
    expect(again.json).toMatchObject({ debateId: created.json.debateId, cached: true });
  });
});
