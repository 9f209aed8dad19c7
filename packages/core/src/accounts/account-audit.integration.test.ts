import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuditContext, withAuditContext } from '../audit/audit-context.ts';
import { LOGIN_FAILURE_LIMITS } from '../ratelimit/rate-limits.ts';
import { auditTrailOf, createTestCore, newUserCredentials, type TestCore } from '../testing/index.ts';

const ORIGIN = { ip: '198.51.100.4', userAgent: 'vitest', requestId: 'req-audit' };
const operator = (command: string): AuditContext => ({
  actor: { kind: 'operator', command },
  origin: { ip: null, userAgent: null, requestId: null },
});

describe("an account's audit trail", () => {
  let test: TestCore;
  beforeAll(async () => {
    test = await createTestCore();
  }, 60_000);
  afterAll(() => test?.cleanup());

  const accounts = () => test.core.accounts;
  const trail = (accountId: string) => auditTrailOf(test.core.db, { accountId });
  /** A fresh address per test, so no test spends another's sign-in budget. */
  const address = () => `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.7`;
  const signUp = async () => {
    const credentials = newUserCredentials('audit');
    const { session } = await withAuditContext({ actor: null, origin: ORIGIN }, () =>
      accounts().signUp(credentials, address()),
    );
    if (!session) throw new Error('sign-up refused');
    return { ...credentials, id: session.user.id };
  };

  it('records a sign-up as the new account’s own creation, without its password, and its first session', async () => {
    const user = await signUp();
    const [created, session, ...rest] = await trail(user.id);
    expect(rest).toEqual([]);
    expect(created).toMatchObject({
      action: 'account.create',
      target_type: 'account',
      target_id: user.id,
      actor_kind: 'user',
      actor_id: user.id,
      ip: ORIGIN.ip,
      request_id: ORIGIN.requestId,
    });
    expect(created?.changes).toEqual({
      email: { before: null, after: user.email },
      name: { before: null, after: user.name },
      plan: { before: null, after: 'free' },
    });
    expect(JSON.stringify(created)).not.toContain(user.password);
    expect(session).toMatchObject({ action: 'session.create', target_type: 'session', actor_id: user.id });
  });

  it('names the operator as the actor of an account it creates', async () => {
    const user = await withAuditContext(operator('create-user'), () =>
      accounts().createUser({ ...newUserCredentials('operator-made'), plan: 'pro' }),
    );
    const entries = await trail(user.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      action: 'account.create',
      actor_kind: 'operator',
      actor_id: 'create-user',
    });
    expect(entries[0]?.changes).toMatchObject({ plan: { before: null, after: 'pro' } });
  });

  it('records a sign-in as the signed-in user’s, and nothing for a wrong password or an unknown email', async () => {
    const user = await signUp();
    const ip = address();
    await expect(accounts().signIn(user.email, 'not the password', ip)).rejects.toThrow(/Wrong email/);
    const stranger = `nobody-${randomUUID()}@example.com`;
    await expect(accounts().signIn(stranger, 'whatever it is', ip)).rejects.toThrow(/Wrong email/);
    expect(await trail(user.id)).toHaveLength(2);
    const issued = await withAuditContext({ actor: null, origin: ORIGIN }, () =>
      accounts().signIn(user.email, user.password, ip),
    );
    const entries = await trail(user.id);
    expect(entries).toHaveLength(3);
    expect(entries[2]).toMatchObject({
      action: 'session.create',
      actor_kind: 'user',
      actor_id: user.id,
      user_agent: ORIGIN.userAgent,
    });
    expect(entries[2]?.changes).toEqual({
      expiresAt: { before: null, after: issued.expiresAt.toISOString() },
    });
  });

  it('records a sign-out once, and nothing for a token that opens no session', async () => {
    const user = await signUp();
    const { token } = await accounts().signIn(user.email, user.password, address());
    await accounts().logout(token);
    await accounts().logout(token);
    const revoked = (await trail(user.id)).filter((entry) => entry.action === 'session.revoke');
    expect(revoked).toHaveLength(1);
    expect(revoked[0]).toMatchObject({ target_type: 'session', actor_kind: 'user', actor_id: user.id });
  });

  it('records a lockout once, when the failures fill the email’s budget, and none for an unknown email', async () => {
    const user = await signUp();
    const stranger = `nobody-${randomUUID()}@example.com`;
    for (const email of [user.email, stranger]) {
      for (let i = 0; i < LOGIN_FAILURE_LIMITS.perEmail; i += 1) {
        await expect(accounts().signIn(email, `wrong guess ${i}`, address())).rejects.toThrow(/Wrong email/);
      }
      // Locked out now: further attempts are refused before any check, and record nothing more.
      await expect(accounts().signIn(email, 'one more guess', address())).rejects.toThrow(/At most/);
    }
    const lockouts = (await trail(user.id)).filter((entry) => entry.action === 'session.lockout');
    expect(lockouts).toHaveLength(1);
    expect(lockouts[0]).toMatchObject({ target_type: 'session', actor_kind: 'system' });
    expect(lockouts[0]?.changes).toEqual({ lockedUntil: { before: null, after: expect.any(String) } });
    const [unknown] = await test.core.db.execute<{ n: number }>(
      "select count(*)::int as n from audit_entries where action = 'session.lockout' and chain <> ?",
      [`account:${user.id}`],
    );
    expect(unknown?.n).toBe(0);
  }, 60_000);

  it('records the operator’s plan and rate-limit changes, and none for an unknown account or no change', async () => {
    const user = await signUp();
    await withAuditContext(operator('set-plan'), async () => {
      await accounts().setPlan(user.id, 'pro');
      await accounts().setPlan(user.id, 'pro');
      await expect(accounts().setPlan(randomUUID(), 'pro')).rejects.toThrow(/not found/);
    });
    await withAuditContext(operator('set-rate-limit'), async () => {
      await accounts().setRateLimit(user.id, 500);
      await expect(accounts().setRateLimit(user.id, -1)).rejects.toThrow(/positive integer/);
    });
    const [plan, limit, ...rest] = (await trail(user.id)).slice(2);
    expect(rest).toEqual([]);
    expect(plan).toMatchObject({
      action: 'account.plan_change',
      actor_kind: 'operator',
      actor_id: 'set-plan',
    });
    expect(plan?.changes).toEqual({ plan: { before: 'free', after: 'pro' } });
    expect(limit).toMatchObject({ action: 'account.rate_limit_change', actor_id: 'set-rate-limit' });
    expect(limit?.changes).toEqual({ rateLimitPerMinute: { before: null, after: 500 } });
  });

  it('records an operator’s credit grant with the balance before and after, and none for a refused one', async () => {
    const user = await signUp();
    await withAuditContext(operator('grant-credits'), async () => {
      await test.core.billing.grantCredits(user.id, 40, 'goodwill');
      await expect(test.core.billing.grantCredits(user.id, 0)).rejects.toThrow(/positive integer/);
      await expect(test.core.billing.grantCredits(randomUUID(), 5)).rejects.toThrow(/not found/);
    });
    const grants = (await trail(user.id)).filter((entry) => entry.action === 'account.credit_grant');
    expect(grants).toHaveLength(1);
    expect(grants[0]).toMatchObject({
      target_id: user.id,
      actor_kind: 'operator',
      actor_id: 'grant-credits',
    });
    expect(grants[0]?.changes).toEqual({
      creditBalance: { before: 10, after: 50 },
      amount: { before: null, after: 40 },
      reason: { before: null, after: 'grant' },
    });
  });
});
