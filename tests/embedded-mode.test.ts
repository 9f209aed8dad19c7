import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, registerUser } from './support/api-client.ts';
import { type RunningProcess, runAdmin, startApi } from './support/processes.ts';

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
    expect((await apiClient(api.baseUrl).GET('/health')).response.status).toBe(200);
    const user = await registerUser(api.baseUrl, 'embedded');
    const created = await apiClient(api.baseUrl, { cookie: user.cookie }).POST('/api/keys', {
      body: { name: 'cli' },
    });
    expect(created.response.status).toBe(201);
    const me = await apiClient(api.baseUrl, { key: created.data?.key }).GET('/v1/me');
    expect(me.response.status).toBe(200);
    expect(me.data).toMatchObject({ id: user.userId, email: user.email, plan: 'free' });
  });

  it('keeps accounts and keys in DATA_DIR across a restart', async () => {
    const user = await registerUser(api.baseUrl, 'persist');
    const created = await apiClient(api.baseUrl, { cookie: user.cookie }).POST('/api/keys', {
      body: { name: 'kept' },
    });
    await api.stop();
    api = await startApi({ DATA_DIR: dataDir });
    const me = await apiClient(api.baseUrl, { key: created.data?.key }).GET('/v1/me');
    expect(me.response.status).toBe(200);
    expect(me.data?.email).toBe(user.email);
    const login = await apiClient(api.baseUrl).POST('/api/auth/login', {
      body: { email: user.email, password: user.password },
    });
    expect(login.response.status).toBe(200);
  });

  it('resumes a debate left unfinished by a killed process when it starts again on the same DATA_DIR', async () => {
    await api.stop();
    api = await startApi({ DATA_DIR: dataDir, SIMULATED_FIRST_TOKEN_MS: '1500' });
    const user = await registerUser(api.baseUrl, 'crash');
    const created = await apiClient(api.baseUrl, { cookie: user.cookie }).POST('/api/debates', {
      body: { question: 'Should the embedded node finish what it started?', agentCount: 3, maxRounds: 2 },
    });
    expect(created.response.status).toBe(201);
    const id = created.data?.debateId as string;
    // A new client on each read: the process (and its port) changes across the kill.
    const read = () =>
      apiClient(api.baseUrl, { cookie: user.cookie }).GET('/api/debates/{id}', { params: { path: { id } } });
    await eventually(read, (res) => res.data?.status === 'running');
    api.child.kill('SIGKILL');
    await once(api.child, 'exit');

    api = await startApi({ DATA_DIR: dataDir, SIMULATED_FIRST_TOKEN_MS: '10' });
    const done = await eventually(read, (res) => res.data?.status === 'completed', 30_000);
    expect(done.data).toMatchObject({ status: 'completed', agentCount: 3, roundCount: 2 });
    // The finished debate's stream: one attempt, every event once, in order.
    const stream = await fetch(`${api.baseUrl}/api/debates/${id}/stream`, {
      headers: { cookie: user.cookie },
    });
    expect(stream.status).toBe(200);
    const text = await stream.text();
    const ids = [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
    expect(ids.length).toBeGreaterThan(10);
    expect(ids).toEqual(ids.map((_, i) => i + 1));
    expect(text.match(/^event: debate\.started$/gm)).toHaveLength(1);
    expect(text).toContain('event: debate.completed');
  });

  it('keeps attachment bytes as files in DATA_DIR, extracts them in-process and serves them back exactly', async () => {
    const user = await registerUser(api.baseUrl, 'files');
    // Next to the running server, the operator command goes through its admin channel.
    const planned = await runAdmin(['set-plan', '--email', user.email, '--plan', 'enterprise'], {
      DATA_DIR: dataDir,
    });
    expect(planned.code).toBe(0);
    const client = apiClient(api.baseUrl, { cookie: user.cookie });
    const created = await client.POST('/api/debates', {
      body: { question: 'Should the notes travel with the embedded debate?' },
    });
    const debateId = created.data?.debateId as string;
    const notes = 'Minutes: the team agreed to keep attachments beside the database.\n';
    const form = new FormData();
    form.append('file', new Blob([notes], { type: 'text/plain' }), 'minutes.txt');
    const uploaded = await fetch(`${api.baseUrl}/api/debates/${debateId}/attachments`, {
      method: 'POST',
      headers: { cookie: user.cookie },
      body: form,
    });
    expect(uploaded.status).toBe(201);
    const { id } = (await uploaded.json()) as { id: string };
    expect(await readFile(join(dataDir, 'attachments', id.slice(0, 2), id), 'utf8')).toBe(notes);
    const list = await eventually(
      () => client.GET('/api/debates/{id}/attachments', { params: { path: { id: debateId } } }),
      (res) => res.data?.attachments[0]?.status === 'ready',
      20_000,
    );
    expect(list.data?.attachments[0]?.textLength).toBeGreaterThan(40);
    const download = await fetch(`${api.baseUrl}/api/debates/${debateId}/attachments/${id}/download`, {
      headers: { cookie: user.cookie },
    });
    expect(await download.text()).toBe(notes);
  });

  it('checks at most ten of 36 wrong passwords sent at once, and refuses the right one once they are spent', async () => {
    const user = await registerUser(api.baseUrl, 'burst');
    const login = (password: string) =>
      apiClient(api.baseUrl).POST('/api/auth/login', { body: { email: user.email, password } });
    const burst = await Promise.all([
      ...Array.from({ length: 36 }, (_, i) => login(`wrong guess ${i}`)),
      login(user.password),
    ]);
    const statuses = burst.map((answer) => answer.response.status);
    // Each 401 is a password that was checked and wrong: never more than the budget of ten.
    expect(statuses.filter((s) => s === 401).length, statuses.join(' ')).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s === 429).length, statuses.join(' ')).toBeGreaterThanOrEqual(26);
    expect((await login(user.password)).response.status).toBe(429);
  });
});
