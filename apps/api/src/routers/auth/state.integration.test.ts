import { SessionInfo, SignInState } from '@verdict/contracts';
import type { Clock } from '@verdict/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createKey,
  expectError,
  type Harness,
  registerUser,
  sessionSetCookie,
  startServer,
} from '../../testing/http-harness.ts';

const DAY = 86_400_000;

/** A clock the test moves by hand: sessions expire without waiting 30 days. */
function manualClock() {
  let now = Date.now();
  const clock: Clock & { advance: (ms: number) => void } = {
    now: () => now,
    advance: (ms) => {
      now += ms;
    },
  };
  return clock;
}

describe('GET /api/auth/state', () => {
  const clock = manualClock();
  let h: Harness;
  beforeAll(async () => {
    h = await startServer({ coreOptions: { clock } });
  });
  afterAll(async () => {
    await h.close();
  });

  /** The answer, checked against the contract: 200, JSON, and a body SignInState reads as it is. */
  const stateOf = async (options: Parameters<Harness['request']>[2] = {}) => {
    const res = await h.request('GET', '/api/auth/state', options);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    // Asking changes nothing: no cookie is set or cleared.
    expect(sessionSetCookie(res.headers)).toBeUndefined();
    expect(SignInState.parse(res.json)).toEqual(res.json);
    return res.json as SignInState;
  };

  it('answers 200 { signedIn: false } to a visitor without a cookie, where GET /api/auth/session is 401', async () => {
    expect(await stateOf()).toEqual({ signedIn: false });
    expectError(await h.request('GET', '/api/auth/session'), 'UNAUTHORIZED');
  });

  it('answers a signed-in cookie with the user and expiry GET /api/auth/session gives', async () => {
    const user = await registerUser(h);
    const session = await h.request('GET', '/api/auth/session', { cookie: user.cookie });
    expect(session.status).toBe(200);
    expect(await stateOf({ cookie: user.cookie })).toEqual({
      signedIn: true,
      ...SessionInfo.parse(session.json),
    });
    expect(await stateOf({ cookie: user.cookie })).toMatchObject({ user: { id: user.session.user.id } });
  });

  it('answers { signedIn: false } for a cookie no session has', async () => {
    expect(await stateOf({ cookie: 'forged-token' })).toEqual({ signedIn: false });
  });

  it('answers { signedIn: false } once the session is signed out', async () => {
    const user = await registerUser(h);
    expect((await stateOf({ cookie: user.cookie })).signedIn).toBe(true);
    const logout = await h.request('POST', '/api/auth/logout', { cookie: user.cookie });
    expect(logout.status).toBe(204);
    expect(await stateOf({ cookie: user.cookie })).toEqual({ signedIn: false });
  });

  it('answers { signedIn: false } once the session has expired, and the user again after a new sign-in', async () => {
    const user = await registerUser(h);
    const { expiresAt } = user.session;
    clock.advance(new Date(expiresAt).getTime() - clock.now() - 1000);
    expect(await stateOf({ cookie: user.cookie })).toMatchObject({ signedIn: true, expiresAt });
    clock.advance(2000);
    expect(await stateOf({ cookie: user.cookie })).toEqual({ signedIn: false });

    const login = await h.request('POST', '/api/auth/login', {
      body: { email: user.email, password: user.password },
    });
    expect(login.status).toBe(200);
    const fresh = sessionSetCookie(login.headers)?.split(';')[0]?.split('=')[1] ?? '';
    const state = await stateOf({ cookie: fresh });
    expect(state.signedIn && new Date(state.expiresAt).getTime()).toBe(clock.now() + 30 * DAY);
  });

  it('ignores API keys, valid or not: a key is no sign-in, and a bad one is no 401 here', async () => {
    const user = await registerUser(h);
    const { key } = await createKey(h, user);
    expect(await stateOf({ key })).toEqual({ signedIn: false });
    expect(await stateOf({ key: 'vrd_not-a-key' })).toEqual({ signedIn: false });
    expect((await stateOf({ key: 'vrd_not-a-key', cookie: user.cookie })).signedIn).toBe(true);
  });

  it('answers the same over tRPC (auth.state)', async () => {
    const user = await registerUser(h);
    const signedOut = await h.request('GET', '/trpc/auth.state');
    expect(signedOut.status).toBe(200);
    expect(signedOut.json).toEqual({ result: { data: { signedIn: false } } });
    const signedIn = await h.request<{ result: { data: SignInState } }>('GET', '/trpc/auth.state', {
      cookie: user.cookie,
    });
    expect(signedIn.json.result.data).toMatchObject({ signedIn: true, user: { id: user.session.user.id } });
  });
});
