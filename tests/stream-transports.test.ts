import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { eventually } from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, expectBody } from './support/api-client.ts';
import { type RunningProcess, startApi } from './support/processes.ts';
import { exchange } from './support/raw-http.ts';
import { readSse, type SseMessage } from './support/sse.ts';
import { type DistributedStack, MODES, type Stack, signUpPro, startStack } from './support/stack.ts';

/** The two HTTP servers an API runs on (STREAMS): uWebSockets.js and Node's http. */
const SERVERS = ['uws', 'node'] as const;
type Server = (typeof SERVERS)[number];

/** Stream opens a user may make a minute on these stacks: low enough for one test to pass it. */
const STREAM_OPENS = 12;

/**
 * Stream opens are counted in fixed one-minute windows aligned to the clock: opens that crossed into the next
 * window would start their count again, and the one past the budget would pass. Waits for a fresh window when
 * less than `needMs` is left of this one.
 */
async function inOneWindow(needMs = 20_000) {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < needMs) await sleep(left + 100);
}

/**
 * Headers that differ between two answers for reasons that are not behaviour: the time, the request id,
 * when a budget resets, and how each server frames a body (uWebSockets.js writes Content-Length after its
 * own mark; Node adds Keep-Alive). What is left must be the same on both servers.
 */
const INCIDENTAL = new Set([
  'date',
  'uwebsockets',
  'transfer-encoding',
  'content-length',
  'connection',
  'keep-alive',
  'x-request-id',
  'x-ratelimit-reset',
  'retry-after',
]);
const behaviourHeaders = (headers: Headers) =>
  Object.fromEntries([...headers].filter(([name]) => !INCIDENTAL.has(name.toLowerCase())));

/** Announces a JSON body of `length` bytes to POST /v1/verdicts, sends a few, and reads the answer. */
const announceTooLarge = (baseUrl: string, length: number) =>
  exchange(
    baseUrl,
    `POST /v1/verdicts HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n{"q":`,
  );

type User = { key: string; cookie: string; email: string };

const ids = (messages: SseMessage[]) => messages.map((m) => m.id);
const oneToN = (messages: SseMessage[]) => messages.map((_, i) => i + 1);

/**
 * The stream routes on each HTTP server the API can run on, in each mode: by key, by session, replay
 * after Last-Event-ID, the end, refusals, the stream budget, a client that never reads, and (distributed)
 * a resume on another API process after the first was killed. Whatever both servers answer is compared:
 * the same status, body and headers.
 */
describe.each(MODES)('streams on uWebSockets.js and on Node http (%s)', (mode) => {
  const stacks = {} as Record<Server, Stack>;
  const extraApis: RunningProcess[] = [];

  const signUp = async (stack: Stack, label: string): Promise<User> => {
    const user = await signUpPro(stack, label);
    const created = expectBody(await user.client.POST('/api/keys', { body: { name: label } }), 201);
    return { key: created.key, cookie: user.cookie, email: user.email };
  };
  const create = async (stack: Stack, user: User, question: string) =>
    expectBody(
      await apiClient(stack.baseUrl, { key: user.key }).POST('/v1/verdicts', {
        body: { question, mode: 'fast' },
      }),
      201,
    ).debateId;
  const v1Stream = (stack: Stack, id: string) => `${stack.baseUrl}/v1/verdicts/${id}/stream`;
  const bearer = (user: User) => ({ authorization: `Bearer ${user.key}` });

  beforeAll(async () => {
    const env = { SIMULATED_FIRST_TOKEN_MS: '120', STREAM_OPENS_PER_MINUTE: String(STREAM_OPENS) };
    const started = await Promise.all(
      SERVERS.map((server) => startStack(mode, `streams${server}`, { ...env, STREAMS: server })),
    );
    SERVERS.forEach((server, i) => {
      stacks[server] = started[i] as Stack;
    });
  });
  afterAll(async () => {
    await Promise.all(extraApis.map((api) => api.stop()));
    await Promise.all(Object.values(stacks).map((stack) => stack.stop()));
  });

  it('streams a debate by key and by session: every event once, in order, to debate.completed; same headers', async () => {
    const headers: Record<string, unknown> = {};
    for (const server of SERVERS) {
      const stack = stacks[server];
      const user = await signUp(stack, `follow-${server}`);
      const id = await create(stack, user, `Should the ${server} team ship on Fridays?`);
      const requestId = `stream-of-${server}`;
      const live = await readSse(v1Stream(stack, id), { ...bearer(user), 'x-request-id': requestId });
      expect(live.status, server).toBe(200);
      expect(live.closedByServer, server).toBe(true);
      // The stream's log line, written at its end, still names the client's request id (a stream's request
      // lets its other headers go while it runs).
      await eventually(
        () => stack.api.output().includes(`"clientRequestId":"${requestId}"`),
        (logged) => logged,
      );
      expect(ids(live.messages), server).toEqual(oneToN(live.messages));
      expect(live.messages[0]?.event, server).toBe('debate.started');
      expect(live.messages.at(-1)?.event, server).toBe('debate.completed');
      // The dashboard's route, with the session cookie a browser's EventSource sends: the same events.
      const bySession = await readSse(`${stack.baseUrl}/api/debates/${id}/stream`, { cookie: user.cookie });
      expect(bySession.status, server).toBe(200);
      expect(
        bySession.messages.map((m) => m.event),
        server,
      ).toEqual(live.messages.map((m) => m.event));
      headers[server] = behaviourHeaders(live.headers);
    }
    expect(headers.uws).toEqual(headers.node);
    expect(headers.node).toMatchObject({ 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  });

  it('replays after Last-Event-ID or ?lastEventId, and answers 204 once nothing more will come', async () => {
    for (const server of SERVERS) {
      const stack = stacks[server];
      const user = await signUp(stack, `replay-${server}`);
      const id = await create(stack, user, `Should the ${server} team rotate on-call weekly?`);
      const first = await readSse(v1Stream(stack, id), bearer(user), { stopAfter: 3 });
      expect(ids(first.messages), server).toEqual([1, 2, 3]);
      const rest = await readSse(v1Stream(stack, id), { ...bearer(user), 'Last-Event-ID': '3' });
      expect(rest.messages[0]?.id, server).toBe(4);
      expect(ids([...first.messages, ...rest.messages]), server).toEqual(
        oneToN([...first.messages, ...rest.messages]),
      );
      const last = rest.messages.at(-1);
      expect(last?.event, server).toBe('debate.completed');
      const fromQuery = await readSse(
        `${v1Stream(stack, id)}?lastEventId=${(last?.id ?? 0) - 1}`,
        bearer(user),
      );
      expect(
        fromQuery.messages.map((m) => m.event),
        server,
      ).toEqual(['debate.completed']);
      const ended = await fetch(v1Stream(stack, id), {
        headers: { ...bearer(user), 'Last-Event-ID': String(last?.id) },
      });
      expect(ended.status, server).toBe(204);
      // A 204 has no body and says no length (RFC 9110), on either server.
      expect(ended.headers.get('content-length'), server).toBeNull();
      // Each stream the server ended is one request log line, as every request is (its status and
      // duration): the two above that ran to debate.completed. Written once the response has finished.
      const streamLines = () =>
        stack.api
          .output()
          .split('\n')
          .filter((line) => line.includes(`/v1/verdicts/${id}/stream`) && line.includes('"status":200'));
      await eventually(
        async () => streamLines().length,
        (count) => count >= 2,
        5000,
      );
    }
  });

  it('answers a request whose body nobody reads, drops the body, and serves the connection on', async () => {
    for (const server of SERVERS) {
      const stack = stacks[server];
      // A body of 2 MiB sent with a request answered before any of it is read (an unknown route: 404), the
      // connection kept for what comes next.
      const body = Buffer.alloc(2 * 1024 * 1024, 'x');
      const unknown = await fetch(`${stack.baseUrl}/api/nothing-here`, { method: 'POST', body });
      expect(unknown.status, server).toBe(404);
      // A body over the limit its Content-Length announces: 413 before any of it is read, and the connection
      // closed (the client would send it anyway). Only the head and a few bytes are sent: a client still
      // writing 2 MiB when the server closes gets EPIPE, sometimes before it has read the answer.
      const refused = await announceTooLarge(stack.baseUrl, body.length);
      expect(refused.status, server).toBe('HTTP/1.1 413 Payload Too Large');
      expect((JSON.parse(refused.body) as { error: { code: string } }).error.code, server).toBe(
        'PAYLOAD_TOO_LARGE',
      );
      expect((await fetch(`${stack.baseUrl}/health`)).status, server).toBe(200);
    }
  });

  it('refuses with the same envelopes and headers on both servers', async () => {
    const answers: Record<string, Record<string, unknown>> = {};
    for (const server of SERVERS) {
      const stack = stacks[server];
      const [owner, other] = await Promise.all([
        signUp(stack, `owner-${server}`),
        signUp(stack, `other-${server}`),
      ]);
      const id = await create(stack, owner, `Should the ${server} team drop its standup?`);
      const deleted = await create(stack, owner, `Should the ${server} team keep this debate?`);
      const removal = await apiClient(stack.baseUrl, { key: owner.key }).DELETE('/v1/verdicts/{id}', {
        params: { path: { id: deleted } },
      });
      expect(removal.response.ok, server).toBe(true);
      const cases: Record<string, [string, Record<string, string>]> = {
        'no credentials': [v1Stream(stack, id), {}],
        'a revoked-looking key': [v1Stream(stack, id), { authorization: 'Bearer vrd_not-a-key' }],
        "another user's debate": [v1Stream(stack, id), bearer(other)],
        'an unknown debate': [v1Stream(stack, '00000000-0000-4000-8000-000000000000'), bearer(owner)],
        'a deleted debate': [v1Stream(stack, deleted), bearer(owner)],
        'an id that is no id': [v1Stream(stack, 'nope'), bearer(owner)],
        'a malformed Last-Event-ID': [v1Stream(stack, id), { ...bearer(owner), 'Last-Event-ID': 'soon' }],
        'a session stream without a session': [`${stack.baseUrl}/api/debates/${id}/stream`, {}],
        'notifications without a session': [`${stack.baseUrl}/api/notifications/stream`, {}],
      };
      answers[server] = {};
      for (const [name, [url, headers]] of Object.entries(cases)) {
        const res = await fetch(url, { headers });
        answers[server][name] = {
          status: res.status,
          body: await res.json(),
          headers: behaviourHeaders(res.headers),
        };
      }
    }
    expect(answers.uws).toEqual(answers.node);
    const statuses = Object.fromEntries(
      Object.entries(answers.node ?? {}).map(([name, answer]) => [
        name,
        (answer as { status: number }).status,
      ]),
    );
    expect(statuses).toEqual({
      'no credentials': 401,
      'a revoked-looking key': 401,
      "another user's debate": 404,
      'an unknown debate': 404,
      'a deleted debate': 404,
      'an id that is no id': 400,
      'a malformed Last-Event-ID': 400,
      'a session stream without a session': 401,
      'notifications without a session': 401,
    });
  });

  it('refuses a stream open past the budget with 429, Retry-After and the envelope, on both servers', async () => {
    const refusals: Record<string, unknown> = {};
    for (const server of SERVERS) {
      const stack = stacks[server];
      const user = await signUp(stack, `budget-${server}`);
      const id = await create(stack, user, `Should the ${server} team cap its meetings?`);
      await inOneWindow();
      const opened: number[] = [];
      // Each open replays the stream (no Last-Event-ID) and counts against the budget.
      for (let i = 0; i < STREAM_OPENS; i += 1)
        opened.push((await readSse(v1Stream(stack, id), bearer(user), { stopAfter: 1 })).status);
      expect(
        opened.every((status) => status === 200),
        JSON.stringify(opened),
      ).toBe(true);
      const refused = await fetch(v1Stream(stack, id), { headers: bearer(user) });
      expect(refused.status, server).toBe(429);
      expect(Number(refused.headers.get('retry-after')), server).toBeGreaterThan(0);
      // When the budget frees up depends on when each run began: the rest must be the same.
      const { error } = (await refused.json()) as { error: Record<string, unknown> };
      const { retryAfter, message, ...rest } = error;
      expect(retryAfter, server).toBe(Number(refused.headers.get('retry-after')));
      expect(message, server).toMatch(/^At most 12 stream opens per minute; retry in \d+ s$/);
      refusals[server] = { error: rest, headers: behaviourHeaders(refused.headers) };
    }
    expect(refusals.uws).toEqual(refusals.node);
    expect(refusals.node).toMatchObject({
      error: { code: 'RATE_LIMITED', budget: 'streamOpens', limit: STREAM_OPENS },
    });
  });

  it('keeps other clients on time while one client never reads its stream', async () => {
    for (const server of SERVERS) {
      const stack = stacks[server];
      const user = await signUp(stack, `slow-${server}`);
      const id = await create(stack, user, `Should the ${server} team buy a second build server?`);
      // A client that sends its request and never reads a byte of the answer.
      const url = new URL(v1Stream(stack, id));
      const stalled = connect(Number(url.port), url.hostname);
      stalled.pause();
      stalled.write(
        `GET ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${user.key}\r\n\r\n`,
      );
      try {
        const started = Date.now();
        const reader = await readSse(v1Stream(stack, id), bearer(user), { timeoutMs: 30_000 });
        expect(reader.closedByServer, server).toBe(true);
        expect(reader.messages.at(-1)?.event, server).toBe('debate.completed');
        expect(ids(reader.messages), server).toEqual(oneToN(reader.messages));
        expect(Date.now() - started, server).toBeLessThan(30_000);
        expect((await fetch(`${stack.baseUrl}/health`)).status, server).toBe(200);
      } finally {
        stalled.destroy();
      }
    }
  });

  if (mode === 'distributed') {
    it('resumes a stream gap-free on another API process after the first is killed', async () => {
      for (const server of SERVERS) {
        const stack = stacks[server] as DistributedStack;
        const second = await startApi(stack.env);
        extraApis.push(second);
        const user = await signUp(stack, `kill-${server}`);
        const created = expectBody(
          await apiClient(stack.baseUrl, { key: user.key }).POST('/v1/verdicts', {
            body: { question: `Should the ${server} team move to a new region?`, mode: 'thorough' },
          }),
          201,
        );
        const path = `/v1/verdicts/${created.debateId}/stream`;
        // Read from the second process until a few events arrived, then kill it mid-stream.
        const before: SseMessage[] = [];
        const cut = readSse(`${second.baseUrl}${path}`, bearer(user), {
          onMessage: (message) => {
            before.push(message);
            if (before.length === 4) second.child.kill('SIGKILL');
          },
        }).catch(() => null);
        await eventually(
          async () => second.child.exitCode ?? second.child.signalCode,
          (code) => code !== null,
          30_000,
        );
        await cut;
        expect(before.length, server).toBeGreaterThanOrEqual(4);
        const lastSeen = before.at(-1)?.id ?? 0;
        const after = await readSse(`${stack.baseUrl}${path}`, {
          ...bearer(user),
          'Last-Event-ID': String(lastSeen),
        });
        const all = [...before, ...after.messages];
        expect(ids(all), server).toEqual(oneToN(all));
        expect(all.at(-1)?.event, server).toBe('debate.completed');
      }
    });
  }
});
