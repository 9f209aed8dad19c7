import { SessionInfo } from '@verdict/contracts';
import { LOGIN_FAILURE_LIMITS } from '@verdict/core';
import { uniqueEmail } from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectError,
  type Harness,
  registerUser,
  sessionSetCookie,
  sessionToken,
  startServer,
} from '../../testing/http-harness.ts';

/** A bodyless JSON POST, as a client library sends it. */
const JSON_HEADERS = { 'content-type': 'application/json' };

describe('auth over HTTP', () => {
  let h: Harness;
  beforeAll(async () => {
    // A frozen clock: the login-failure window (15 min) cannot roll over in the middle of a test.
    const frozen = Date.now();
    h = await startServer({ coreOptions: { clock: { now: () => frozen } } });
  });
  afterAll(async () => {
    await h.close();
  });

  describe('register', () => {
    it('creates a free-plan user with 10 credits, answers 201 and sets an HttpOnly SameSite=Lax cookie', async () => {
      const email = uniqueEmail('reg');
      const res = await h.request('POST', '/api/auth/register', {
        body: { email, password: 'long enough', name: '  Ada  ' },
      });
      expect(res.status).toBe(201);
      const body = SessionInfo.parse(res.json);
      expect(body.user).toMatchObject({ email, name: 'Ada', plan: 'free', credits: 10 });
      expect(new Date(body.expiresAt).getTime()).toBeGreaterThan(Date.now());

      const cookie = sessionSetCookie(res.headers);
      expect(cookie).toBeDefined();
      const attributes = cookie!.split(';').map((part) => part.trim().toLowerCase());
      expect(attributes).toContain('httponly');
      expect(attributes).toContain('samesite=lax');
      expect(attributes).toContain('path=/');
      expect(attributes.some((a) => a.startsWith('expires='))).toBe(true);
      expect(attributes).not.toContain('secure');
    });

    it('signs the new user in: the cookie opens GET /api/auth/session', async () => {
      const user = await registerUser(h);
      const res = await h.request('GET', '/api/auth/session', { cookie: user.cookie });
      expect(res.status).toBe(200);
      expect(SessionInfo.parse(res.json).user).toEqual(user.session.user);
    });

    it('stores the email in lower case', async () => {
      const email = uniqueEmail('MiXeD').toUpperCase();
      const user = await registerUser(h, { email });
      expect(user.session.user.email).toBe(email.toLowerCase());
    });

    it('rejects a second registration of the same email, whatever its case, with 409 CONFLICT', async () => {
      const email = uniqueEmail('dup');
      await registerUser(h, { email });
      const res = await h.request('POST', '/api/auth/register', {
        body: { email: email.toUpperCase(), password: 'another password', name: 'Someone' },
      });
      expectError(res, 'CONFLICT');
    });

    it.each([
      ['shorter than 10 characters', 'nine char', 'too_small'],
      ['of spaces and control characters only', ' \t\u200b\u202e        ', 'custom'],
      ['among the most common ones (any case)', 'Password123', 'common_password'],
      ['among the most common ones', '1234567890', 'common_password'],
    ])(
      'rejects a password %s with 400 VALIDATION_ERROR naming the password',
      async (_label, password, code) => {
        const email = uniqueEmail();
        const res = await h.request('POST', '/api/auth/register', {
          body: { email, password, name: 'Weak' },
        });
        const error = expectError(res, 'VALIDATION_ERROR');
        expect(error.details).toEqual([expect.objectContaining({ path: 'password', code })]);
        expect(sessionSetCookie(res.headers)).toBeUndefined();
        // Nothing was created: the same email registers fine with a good password.
        const retry = await h.request('POST', '/api/auth/register', {
          body: { email, password: 'a much better passphrase', name: 'Strong' },
        });
        expect(retry.status).toBe(201);
      },
    );

    it('rejects an invalid email, a missing name and unknown fields, listing each in details', async () => {
      const res = await h.request('POST', '/api/auth/register', {
        body: { email: 'not-an-email', password: 'long enough', admin: true },
      });
      const error = expectError(res, 'VALIDATION_ERROR');
      expect(error.details?.map((d) => d.path).sort()).toEqual(['', 'email', 'name']);
    });
  });

  describe('login', () => {
    it('accepts the right password (any email case) with 200, the session and a fresh cookie', async () => {
      const user = await registerUser(h);
      const res = await h.request('POST', '/api/auth/login', {
        body: { email: user.email.toUpperCase(), password: user.password },
      });
      expect(res.status).toBe(200);
      expect(SessionInfo.parse(res.json).user.id).toBe(user.session.user.id);
      const token = sessionToken(res.headers);
      expect(token).not.toBe(user.cookie);
      const session = await h.request('GET', '/api/auth/session', { cookie: token });
      expect(session.status).toBe(200);
    });

    it('answers a wrong password and an unknown email alike: 401 UNAUTHORIZED with the same message', async () => {
      const user = await registerUser(h);
      const wrongPassword = await h.request('POST', '/api/auth/login', {
        body: { email: user.email, password: 'not the password' },
      });
      const unknownEmail = await h.request('POST', '/api/auth/login', {
        body: { email: uniqueEmail('ghost'), password: user.password },
      });
      const a = expectError(wrongPassword, 'UNAUTHORIZED');
      const b = expectError(unknownEmail, 'UNAUTHORIZED');
      expect(a.message).toBe(b.message);
      expect(sessionSetCookie(wrongPassword.headers)).toBeUndefined();
      expect(sessionSetCookie(unknownEmail.headers)).toBeUndefined();
    });

    it(`refuses the attempt after ${LOGIN_FAILURE_LIMITS.perEmail} failures for one email with 429 RATE_LIMITED and Retry-After, even with the right password`, async () => {
      const user = await registerUser(h);
      for (let i = 0; i < LOGIN_FAILURE_LIMITS.perEmail; i++) {
        // Alternating case: the limit is per account email, not per spelling.
        const email = i % 2 ? user.email.toUpperCase() : user.email;
        const res = await h.request('POST', '/api/auth/login', {
          body: { email, password: `wrong-${i}-pw` },
        });
        expectError(res, 'UNAUTHORIZED');
      }
      const res = await h.request('POST', '/api/auth/login', {
        body: { email: user.email, password: user.password },
      });
      const refusal = expectError(res, 'RATE_LIMITED', { extras: ['retryAfter', 'budget', 'limit'] });
      expect(refusal).toMatchObject({ budget: 'signIns', limit: LOGIN_FAILURE_LIMITS.perEmail });
      expect(refusal.message).toMatch(
        /^At most 10 failed sign-ins for this email in 15 minutes; retry in \d+ s$/,
      );
      const retryAfter = Number(res.headers.get('retry-after'));
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(LOGIN_FAILURE_LIMITS.windowMs / 1000);
      expect(sessionSetCookie(res.headers)).toBeUndefined();

      // Another account from the same client is not affected.
      const other = await registerUser(h);
      const ok = await h.request('POST', '/api/auth/login', {
        body: { email: other.email, password: other.password },
      });
      expect(ok.status).toBe(200);
    });

    it('rejects a login body without a password with 400 VALIDATION_ERROR', async () => {
      const res = await h.request('POST', '/api/auth/login', { body: { email: uniqueEmail() } });
      const error = expectError(res, 'VALIDATION_ERROR');
      expect(error.details?.map((d) => d.path)).toEqual(['password']);
    });
  });

  describe('session and logout', () => {
    it('answers GET /api/auth/session without a cookie with 401 UNAUTHORIZED', async () => {
      expectError(await h.request('GET', '/api/auth/session'), 'UNAUTHORIZED');
    });

    it('answers GET /api/auth/session with an unknown cookie with 401 UNAUTHORIZED', async () => {
      expectError(await h.request('GET', '/api/auth/session', { cookie: 'forged-token' }), 'UNAUTHORIZED');
    });

    it('ends the session on logout: 204, the cookie is cleared and the old token gets 401', async () => {
      const user = await registerUser(h);
      const res = await h.request('POST', '/api/auth/logout', { cookie: user.cookie, headers: JSON_HEADERS });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      const cleared = sessionSetCookie(res.headers);
      expect(cleared).toMatch(/^verdict_session=;/);
      expect(cleared?.toLowerCase()).toContain('expires=thu, 01 jan 1970');

      expectError(await h.request('GET', '/api/auth/session', { cookie: user.cookie }), 'UNAUTHORIZED');
      expectError(await h.request('GET', '/api/keys', { cookie: user.cookie }), 'UNAUTHORIZED');
    });

    it('ends only its own session: another login of the same user stays valid', async () => {
      const user = await registerUser(h);
      const login = await h.request('POST', '/api/auth/login', {
        body: { email: user.email, password: user.password },
      });
      const second = sessionToken(login.headers);
      await h.request('POST', '/api/auth/logout', { cookie: user.cookie, headers: JSON_HEADERS });
      expect((await h.request('GET', '/api/auth/session', { cookie: second })).status).toBe(200);
    });

    it("signs out with a bare POST and no Content-Type (a browser's fetch), answering 204", async () => {
      const user = await registerUser(h);
      const res = await h.request('POST', '/api/auth/logout', { cookie: user.cookie });
      expect(res.status).toBe(204);
    });

    it('answers logout without a session with 204 (idempotent)', async () => {
      const res = await h.request('POST', '/api/auth/logout', { headers: JSON_HEADERS });
      expect(res.status).toBe(204);
    });
  });
});

describe('auth behind an https PUBLIC_BASE_URL', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startServer({ env: { PUBLIC_BASE_URL: 'https://api.example.test' } });
  });
  afterAll(async () => {
    await h.close();
  });

  it('marks the session cookie Secure on register and on login', async () => {
    const email = uniqueEmail('secure');
    const register = await h.request('POST', '/api/auth/register', {
      body: { email, password: 'long enough', name: 'Sec' },
    });
    expect(register.status).toBe(201);
    const login = await h.request('POST', '/api/auth/login', { body: { email, password: 'long enough' } });
    expect(login.status).toBe(200);
    for (const res of [register, login]) {
      const attributes = sessionSetCookie(res.headers)!
        .split(';')
        .map((part) => part.trim().toLowerCase());
      expect(attributes).toEqual(expect.arrayContaining(['secure', 'httponly', 'samesite=lax']));
    }
  });
});
