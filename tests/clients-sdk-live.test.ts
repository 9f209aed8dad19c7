import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DebateStreamEvent, Verdict } from '../packages/sdk/src/index.ts';
import { apiClient, registerUser } from './support/api-client.ts';
import { type RunningProcess, runAdmin, startApi } from './support/processes.ts';

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

// The SDK against a running server: its stream across a server that dies mid-debate and comes back on the
// same DATA_DIR, the notification stream, Idempotency-Key on creates.
describe('the SDK against a running server', () => {
  let dataDir: string;
  let env: Record<string, string>;
  let api: RunningProcess;
  let key: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'verdict-resume-data-'));
    env = { DATA_DIR: dataDir, PORT: String(await freePort()), SIMULATED_FIRST_TOKEN_MS: '400' };
    api = await startApi(env);
    const user = await registerUser(api.baseUrl, 'resume');
    await runAdmin(['set-rate-limit', '--email', user.email, '--per-minute', '1000'], { DATA_DIR: dataDir });
    const created = await apiClient(api.baseUrl, { cookie: user.cookie }).POST('/api/keys', {
      body: { name: 'resume' },
    });
    key = created.data?.key as string;
  });
  afterAll(async () => {
    await api?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('reconnects with Last-Event-ID and delivers every event once, in order, to debate.completed', async () => {
    const client = new Verdict({ baseUrl: api.baseUrl, apiKey: key });
    const { debateId } = await client.debates.create({
      question: 'Does the stream survive a server restart?',
      agentCount: 3,
      maxRounds: 2,
    });
    const events: DebateStreamEvent[] = [];
    let restarted: Promise<void> | null = null;
    for await (const event of client.debates.stream(debateId, {
      maxReconnects: 40,
      backoff: { initialDelayMs: 200, maxDelayMs: 1000 },
    })) {
      events.push(event);
      if (event.type === 'argument' && restarted === null) {
        // Killed with the debate half-way; a new process on the same port and data resumes it.
        api.child.kill('SIGKILL');
        restarted = once(api.child, 'exit').then(async () => {
          api = await startApi({ ...env, SIMULATED_FIRST_TOKEN_MS: '10' });
        });
      }
    }
    await restarted;
    expect(restarted).not.toBeNull();
    const ids = events.map((e) => e.id);
    expect(ids).toEqual(ids.map((_, i) => i + 1)); // numbered from 1, no gap, no repeat
    expect(events.at(-1)?.type).toBe('debate.completed');
    expect(events.filter((e) => e.type === 'verdict')).toHaveLength(1);
    expect((await client.debates.waitUntilFinished(debateId)).status).toBe('completed');
  }, 120_000);

  it('follows notifications: connected first, then a comment on the caller’s debate as it is made', async () => {
    const owner = new Verdict({ baseUrl: api.baseUrl, apiKey: key });
    const { debateId } = await owner.debates.create({
      question: 'Will anyone comment on this debate?',
      maxRounds: 1,
    });
    await owner.debates.waitUntilFinished(debateId);
    await owner.rest.PATCH('/api/debates/{id}/visibility', {
      params: { path: { id: debateId } },
      body: { isPublic: true },
    });
    const commenter = await registerUser(api.baseUrl, 'commenter');
    const stop = new AbortController();
    const received: string[] = [];
    const comment = async () =>
      new Verdict({ baseUrl: api.baseUrl, headers: { cookie: commenter.cookie } }).rest.POST(
        '/api/debates/{id}/comments',
        { params: { path: { id: debateId } }, body: { content: 'I have a view on this.' } },
      );
    for await (const event of owner.notifications.stream({ signal: stop.signal })) {
      received.push(event.type);
      if (event.type === 'connected') {
        expect(event.data.userId).toEqual(expect.any(String));
        await comment();
      } else {
        expect(event.data).toMatchObject({ type: 'comment' });
        stop.abort(); // the iterator ends quietly on abort
      }
    }
    expect(received).toEqual(['connected', 'notification']);
  }, 60_000);

  it('sends the same Idempotency-Key when asked to, so a repeated create is the same debate', async () => {
    const client = new Verdict({ baseUrl: api.baseUrl, apiKey: key });
    // Past the answer cache: the first debate may finish before the third create, which would answer it.
    const body = { question: 'Is a repeated create one debate?', maxRounds: 1, skipCache: true };
    const first = await client.debates.create(body, { idempotencyKey: 'create-once-1' });
    const again = await client.debates.create(body, { idempotencyKey: 'create-once-1' });
    const other = await client.debates.create(body);
    expect(again.debateId).toBe(first.debateId);
    expect(other.debateId).not.toBe(first.debateId); // each call without one gets a key of its own
  });
});
