import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, expectBody } from './support/api-client.ts';
import { freePort } from './support/nats-server.ts';
import { type RunningEngine, type RunningProcess, startApi, startEngine } from './support/processes.ts';
import { readSse, type SseMessage } from './support/sse.ts';
import {
  type DistributedStack,
  type ProUser,
  type Stack,
  signUpPro,
  startDistributedStack,
  startStack,
} from './support/stack.ts';

/** A debate long enough to shut processes down in the middle of: 8 agents, 3 rounds, slow turns. */
const SLOW_TURNS = { SIMULATED_FIRST_TOKEN_MS: '700' };
const QUESTION = 'Should we move our on-call rotation from weekly to daily handovers?';

/** SIGTERM, and the exit code once the process has gone (as an orchestrator stopping a pod sees it). */
async function terminate(child: RunningProcess['child']) {
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  child.kill('SIGTERM');
  const [code] = await exited;
  return code;
}

/** GET /ready through the client generated from the API document. */
const readiness = (baseUrl: string) => apiClient(baseUrl).GET('/ready');

const streamPath = (streamUrl: string) => new URL(streamUrl).pathname;

/** Gap-free and once each: ids 1..n in order, ending with the debate's completion. */
function expectWholeStream(messages: SseMessage[]) {
  expect(messages.map((m) => m.id)).toEqual(messages.map((_, i) => i + 1));
  expect(messages.at(-1)?.event).toBe('debate.completed');
}

describe('SIGTERM in distributed mode: an API process and the engine node running a streamed debate', () => {
  let stack: DistributedStack;
  let secondApi: RunningProcess;
  let secondEngine: RunningEngine;
  let enginePort: number;
  let user: ProUser;

  beforeAll(async () => {
    enginePort = await freePort();
    // The stack's API drains for a second before it closes: long enough to see /ready say so.
    stack = await startDistributedStack('shutdown', {
      ...SLOW_TURNS,
      SHUTDOWN_DELAY_MS: '1000',
      METRICS_PORT: String(enginePort),
    });
    const { METRICS_PORT: _, SHUTDOWN_DELAY_MS: __, ...env } = stack.env;
    secondApi = await startApi(env);
    secondEngine = await startEngine(env);
    user = await signUpPro(stack, 'shutdown');
  }, 120_000);
  afterAll(async () => {
    await secondEngine?.stop();
    await secondApi?.stop();
    await stack?.stop();
  });

  it('ends the stream with a retry hint, and the debate finishes on the other node, every event seen once', async () => {
    const created = expectBody(
      await user.client.POST('/api/debates', { body: { question: QUESTION, mode: 'thorough' } }),
      201,
    );
    const path = streamPath(created.streamUrl);
    const auth = { cookie: user.cookie };
    const engineReady = await fetch(`http://127.0.0.1:${enginePort}/ready`);
    expect(engineReady.status).toBe(200);

    let apiExit: Promise<number | null> | null = null;
    let readyWhileDraining: Awaited<ReturnType<typeof readiness>> | null = null;
    const first = await readSse(`${stack.baseUrl}${path}`, auth, {
      timeoutMs: 60_000,
      onMessage: async (message) => {
        if (message.id !== 3 || apiExit) return;
        apiExit = terminate(stack.api.child);
        await new Promise((resolve) => setTimeout(resolve, 200));
        readyWhileDraining = await readiness(stack.baseUrl);
      },
    });
    // Draining: /ready said no while the stream still ran, then the stream ended with a hint to reconnect.
    const draining = readyWhileDraining as Awaited<ReturnType<typeof readiness>> | null;
    expect(draining?.response.status).toBe(503);
    const drainingError = draining?.error?.error;
    expect(drainingError?.code === 'SERVICE_UNAVAILABLE' && drainingError.checks?.draining).toBe(true);
    expect(first.closedByServer).toBe(true);
    expect(first.retries).toHaveLength(1);
    expect(first.messages.at(-1)?.event).not.toBe('debate.completed');
    expect(await apiExit).toBe(0);

    // The client comes back through another API process, from its last event. Once it has seen one more,
    // the engine node holding the debate is stopped too.
    const [held] = await stack.db.core.db.execute<{ lease_owner: string }>(
      'select lease_owner from debates where id = ?',
      [created.debateId],
    );
    const [holder, other] = held?.lease_owner.includes(`:${stack.engine.child.pid}:`)
      ? [stack.engine, secondEngine]
      : [secondEngine, stack.engine];
    expect(held?.lease_owner).toContain(`:${holder.child.pid}:`);
    let engineExit: Promise<number | null> | null = null;
    const rest = await readSse(
      `${secondApi.baseUrl}${path}`,
      { ...auth, 'Last-Event-ID': String(first.messages.at(-1)?.id) },
      {
        timeoutMs: 90_000,
        onMessage: () => {
          engineExit ??= terminate(holder.child);
        },
      },
    );
    expect(await engineExit).toBe(0);
    expect(rest.closedByServer).toBe(true);
    expectWholeStream([...first.messages, ...rest.messages]);
    expect(holder.output()).toContain('handed back to the queue: this node is stopping');

    // The other node restored it from its last stored step and finished it: the state chart shows the hand-over.
    const chart = expectBody(
      await apiClient(secondApi.baseUrl, { cookie: user.cookie }).GET('/api/debates/{id}/statechart', {
        params: { path: { id: created.debateId } },
      }),
      200,
    );
    expect(chart.current.state).toBe('completed');
    const nodes = chart.history.map((record) => record.node ?? '');
    expect(nodes[0]).toContain(`:${holder.child.pid}:`);
    expect(nodes.at(-1)).toContain(`:${other.child.pid}:`);
    const restored = chart.history.find((record) => record.event === 'xstate.restore');
    expect(restored?.node).toContain(`:${other.child.pid}:`);
  });
});

describe('SIGTERM in embedded mode', () => {
  let stack: Stack;
  let user: ProUser;

  beforeAll(async () => {
    stack = await startStack('embedded', 'shutdown', SLOW_TURNS);
    user = await signUpPro(stack, 'shutdown');
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
  });

  it('ends the stream with a retry hint and exits 0; after the restart the debate resumes and completes', async () => {
    // Ready before: the embedded database and the in-process bus answer, the schema is this version's.
    const ready = await readiness(stack.baseUrl);
    expect(ready.response.status).toBe(200);
    expect(ready.data?.checks).toEqual({ database: 'ok', bus: 'ok', migrations: 'ok', draining: false });
    const created = expectBody(
      await user.client.POST('/api/debates', { body: { question: QUESTION, mode: 'thorough' } }),
      201,
    );
    const path = streamPath(created.streamUrl);
    let exit: Promise<number | null> | null = null;
    const first = await readSse(
      `${stack.baseUrl}${path}`,
      { cookie: user.cookie },
      {
        timeoutMs: 60_000,
        onMessage: (message) => {
          if (message.id === 3) exit ??= terminate(stack.api.child);
        },
      },
    );
    expect(first.closedByServer).toBe(true);
    expect(first.retries).toHaveLength(1);
    expect(await exit).toBe(0);

    await stack.restartApi({ samePort: true });
    const rest = await readSse(
      `${stack.baseUrl}${path}`,
      { cookie: user.cookie, 'Last-Event-ID': String(first.messages.at(-1)?.id) },
      { timeoutMs: 90_000 },
    );
    expectWholeStream([...first.messages, ...rest.messages]);
    const read = expectBody(
      await apiClient(stack.baseUrl, { cookie: user.cookie }).GET('/api/debates/{id}', {
        params: { path: { id: created.debateId } },
      }),
      200,
    );
    expect(read.status).toBe('completed');
  });
});
