import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout } from 'node:timers/promises';
import { eventually } from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, registerUser } from './support/api-client.ts';
import { installOutside, packWorkspaces, ROOT, run } from './support/packages.ts';
import { type RunningProcess, startApi } from './support/processes.ts';
import { type DistributedStack, startDistributedStack } from './support/stack.ts';

type DebateStateChart = { events: { seq: number }[] };
type Line = { step: string; [field: string]: unknown };

/**
 * The consumer's records, one JSON object a line, as it prints them: `first` resolves with the first one that
 * matches, printed already or to come, and rejects once the consumer has exited without printing one.
 */
function recordsOf(child: ChildProcess) {
  const seen: Line[] = [];
  let stderr = '';
  let exited: string | null = null;
  const waiting = new Set<{
    match: (line: Line) => boolean;
    resolve: (line: Line) => void;
    reject: (e: Error) => void;
  }>();
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (text) => {
    const line = JSON.parse(text) as Line;
    seen.push(line);
    for (const waiter of [...waiting]) {
      if (!waiter.match(line)) continue;
      waiting.delete(waiter);
      waiter.resolve(line);
    }
  });
  child.once('exit', (code) => {
    exited = `the consumer exited with ${code}: ${stderr}`;
    for (const waiter of waiting) waiter.reject(new Error(exited));
    waiting.clear();
  });
  return {
    stderr: () => stderr,
    first: (match: (line: Line) => boolean): Promise<Line> => {
      const found = seen.find(match);
      if (found) return Promise.resolve(found);
      if (exited !== null) return Promise.reject(new Error(exited));
      return new Promise((resolve, reject) => waiting.add({ match, resolve, reject }));
    },
  };
}
const step = (name: string) => (line: Line) => line.step === name;

/** The outside project: the packed SDK, a bare @trpc/client and eventsource, and the consumer. */
let outside: string;
beforeAll(async () => {
  outside = await mkdtemp(join(tmpdir(), 'verdict-trpc-outside-'));
  const tarballs = await packWorkspaces(['@verdict/sdk'], join(outside, 'tarballs'));
  await installOutside(outside, tarballs, [
    '@trpc/client@11.25.2',
    'eventsource@3.0.7',
    'typescript@6.0.3',
    '@types/node@24.10.1',
  ]);
  await copyFile(join(ROOT, 'tests/clients/trpc-consumer.ts'), join(outside, 'trpc-consumer.ts'));
  await writeFile(
    join(outside, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        target: 'es2022',
        module: 'nodenext',
        moduleResolution: 'nodenext',
        noEmit: true,
        types: ['node'],
      },
      files: ['trpc-consumer.ts'],
    }),
  );
}, 180_000);
afterAll(async () => {
  if (outside) await rm(outside, { recursive: true, force: true });
});

describe('a tRPC consumer of the packed SDK', () => {
  it('type-checks with tsc --strict: each event’s type narrows its data', async () => {
    const result = await run(join(outside, 'node_modules/.bin/tsc'), ['-p', outside], { cwd: outside }).then(
      ({ stdout }) => ({ stdout, code: 0 }),
      (error: { stdout?: string; code?: number }) => ({ stdout: error.stdout ?? '', code: error.code ?? -1 }),
    );
    expect(result.stdout).toBe('');
    expect(result.code).toBe(0);
  }, 120_000);
});

// A tRPC client as an outside TypeScript project builds it — a bare @trpc/client typed with the packed SDK's
// AppRouter, subscriptions over httpSubscriptionLink on the eventsource package — against the distributed
// mode: an engine node and two API processes on PostgreSQL and NATS, on each HTTP server the API runs on
// (STREAMS). The API the client talks to is stopped under its subscriptions and started again on the same
// port, while the other one goes on serving.
describe.each(['node', 'uws'] as const)(
  'tRPC subscriptions across a restart of the API (STREAMS=%s)',
  (server) => {
    let stack: DistributedStack;
    let other: RunningProcess;

    beforeAll(async () => {
      // Turns slow enough that the debate is still running when the API is stopped at its first argument.
      stack = await startDistributedStack(`trpc_subs_${server}`, {
        SIMULATED_FIRST_TOKEN_MS: '400',
        STREAMS: server,
      });
      other = await startApi(stack.env);
    }, 120_000);
    afterAll(async () => {
      await other?.stop();
      await stack?.stop();
    });

    it('resumes each subscription after the restart: every stored event and notification once, in order', async () => {
      const owner = await registerUser(stack.baseUrl, 'trpc-owner');
      await stack.setRateLimit(owner.email, 1000);
      const created = await apiClient(stack.baseUrl, { cookie: owner.cookie }).POST('/api/keys', {
        body: { name: 'trpc consumer' },
      });
      const key = created.data?.key as string;
      const commenter = await registerUser(other.baseUrl, 'trpc-commenter');
      const viaOther = apiClient(other.baseUrl, { key });
      const comment = async (debateId: string, content: string) => {
        const res = await apiClient(other.baseUrl, { cookie: commenter.cookie }).POST(
          '/api/debates/{id}/comments',
          {
            params: { path: { id: debateId } },
            body: { content },
          },
        );
        expect(res.response.status).toBe(201);
      };
      const storedEvents = async (id: string) =>
        (await viaOther.GET('/api/debates/{id}/statechart', { params: { path: { id } } }))
          .data as DebateStateChart;

      const consumer = spawn(process.execPath, ['trpc-consumer.ts', stack.baseUrl, key, '5'], {
        cwd: outside,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const exited = once(consumer, 'exit');
      const records = recordsOf(consumer);
      try {
        const debateId = (await records.first(step('created'))).debateId as string;
        // The API the subscription is on stops (SIGTERM) at the debate's first argument, while the engine goes on.
        const argument = await records.first((line) => line.step === 'event' && line.type === 'argument');
        const stopping = Date.now();
        await stack.api.stop();
        // Its subscriptions were ended at once, not after the shutdown grace (10 s).
        expect(Date.now() - stopping).toBeLessThan(5000);
        const seenWhenStopped = Number(argument.id);
        // Events stored while the client could not be there: the resume replays them.
        await eventually(
          async () => {
            await setTimeout(250);
            return storedEvents(debateId);
          },
          (chart) => chart.events.length >= seenWhenStopped + 3,
          30_000,
        );
        await stack.restartApi({ samePort: true });
        const debate = await records.first(step('debate'));
        expect(debate.types).toContain('verdict');
        expect((debate.types as string[]).at(-1)).toBe('debate.completed');
        expect(debate.ids).toEqual(debate.stored);
        expect(new Set(debate.ids as string[]).size).toBe((debate.ids as string[]).length);
        expect(debate.starts).toBeGreaterThanOrEqual(2);
        expect(Number.isInteger(debate.confidence)).toBe(true);

        // Notifications: one live, then the API killed (SIGKILL: no goodbye), three made on the other API
        // while it is down, it starts again, and one more.
        await records.first(step('notifications-started'));
        await comment(debateId, 'seen live');
        await records.first(step('notification'));
        const api = stack.api;
        const killed = once(api.child, 'exit');
        api.child.kill('SIGKILL');
        await killed;
        for (const content of ['missed one', 'missed two', 'missed three']) await comment(debateId, content);
        await stack.restartApi({ samePort: true });
        await comment(debateId, 'after the restart');
        const notifications = await records.first(step('notifications'));
        expect(notifications.stored).toHaveLength(5);
        expect(notifications.ids).toEqual(notifications.stored);
        expect(notifications.starts).toBeGreaterThanOrEqual(2);

        const [code] = await exited;
        expect(code, records.stderr()).toBe(0);
      } finally {
        consumer.kill();
      }
    }, 150_000);
  },
);
