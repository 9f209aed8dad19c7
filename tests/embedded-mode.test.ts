import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerUser } from './support/http.ts';
import { type RunningProcess, startApi } from './support/processes.ts';

// `npm start` with no DATABASE_URL and no NATS_URL: embedded PGlite in DATA_DIR, in-process bus, no keys.
describe('the start command on the embedded default', () => {
  let dataDir: string;
  let api: RunningProcess;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'verdict-embedded-'));
    api = await startApi({ DATA_DIR: dataDir });
  });
  afterAll(async () => {
    await api?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('says at start that it runs on embedded PGlite, the in-process bus and the simulated model', () => {
    expect(api.output()).toContain('database: embedded PGlite');
    expect(api.output()).toContain('bus: in-process');
    expect(api.output()).toContain('SIMULATED debater model');
  });

  it('serves health, accounts, keys and /v1/me with nothing else running', async () => {
    expect((await call(api.baseUrl, 'GET', '/health')).status).toBe(200);
    const user = await registerUser(api.baseUrl, 'embedded');
    const created = await call(api.baseUrl, 'POST', '/api/keys', {
      cookie: user.cookie,
      body: { name: 'cli' },
    });
    expect(created.status).toBe(201);
    const me = await call(api.baseUrl, 'GET', '/v1/me', { key: created.body.key });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: user.userId, email: user.email, plan: 'free' });
  });

  it('keeps accounts and keys in DATA_DIR across a restart', async () => {
    const user = await registerUser(api.baseUrl, 'persist');
    const created = await call(api.baseUrl, 'POST', '/api/keys', {
      cookie: user.cookie,
      body: { name: 'kept' },
    });
    await api.stop();
    api = await startApi({ DATA_DIR: dataDir });
    const me = await call(api.baseUrl, 'GET', '/v1/me', { key: created.body.key });
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(user.email);
    const login = await call(api.baseUrl, 'POST', '/api/auth/login', {
      body: { email: user.email, password: 'correct horse' },
    });
    expect(login.status).toBe(200);
  });
});
