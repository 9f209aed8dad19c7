import { setTimeout as sleep } from 'node:timers/promises';
import {
  debaterTurnOf,
  type FakeLlmServer,
  type FakeReply,
  type FakeRequest,
  isClassification,
  judgeVerdictJson,
  startFakeLlmServer,
} from '@verdict/engine/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, apiClient, expectBody, registerUser } from './support/api-client.ts';
import { readSse, type SseMessage } from './support/sse.ts';
import { MODES, type Stack, startStack } from './support/stack.ts';

/** The judge refuses the debates whose question holds this: they end `debate.failed` (PROVIDER_ERROR). */
const JUDGE_FAILS = '[judge-fails]';
/** The debates that are paused: their first round waits for the pause (pauseGates), their turns take longer. */
const SLOW = '[slow]';

/**
 * The first round of a debate that will be paused waits until its pause was accepted, so the pause lands in
 * round 1 however busy the machine is (a pause that arrived during the last round would find nothing left to
 * pause, and the run would exercise no pause). Released by the test once its pause attempts are over,
 * accepted or given up (`pause`); GATE_MS only bounds a run whose checks broke before they got there.
 */
const GATE_MS = 60_000;
const pauseGates = new Map<string, { opened: Promise<void>; open: () => void }>();
const gateFor = (question: string) => {
  let gate = pauseGates.get(question);
  if (!gate) {
    let open = () => {};
    const opened = new Promise<void>((resolve) => {
      open = resolve;
    });
    gate = { opened, open };
    pauseGates.set(question, gate);
  }
  return gate;
};

/**
 * Debaters take a moment, the classifier a little longer (the step between the verdict and the stored final
 * state), the judge answers at once or refuses.
 */
const script = async (request: FakeRequest): Promise<FakeReply> => {
  const turn = debaterTurnOf(request);
  if (turn) {
    if (turn.question.includes(SLOW) && turn.round === 1) {
      await Promise.race([gateFor(turn.question).opened, sleep(GATE_MS)]);
    }
    await sleep((turn.question.includes(SLOW) ? 300 : 50) + Math.random() * 80);
    return { text: `A concrete point, answer ${request.index}.` };
  }
  if (isClassification(request)) {
    await sleep(300);
    return { text: 'business' };
  }
  if (JSON.stringify(request.body).includes(JUDGE_FAILS)) return { status: 400, message: 'judge refuses' };
  return { text: judgeVerdictJson({ recommendation: 'PROCEED' }) };
};

const SETTINGS = {
  ANTHROPIC_API_KEY: 'sk-ant-fake-agreement',
  CONCURRENT_DEBATES: '50',
  STREAM_OPENS_PER_MINUTE: '1000',
};

/** What each debate of the run does while it is followed. */
type Plan = 'run' | 'pause-resume' | 'pause-skip' | 'fail';
const PLANS: Plan[] = ['run', 'pause-resume', 'pause-skip', 'fail'];
const DEBATES = 24;

/**
 * Runs DEBATES debates (their questions named after `run`) on the API at `baseUrl` as the key's owner, follows each one's stream, and on every
 * event reads the debate back at once over REST: the read must already show what the event says. Returns
 * every disagreement found, and the events seen by type.
 */
async function followAndReadBack(baseUrl: string, key: string, run: string) {
  const client = apiClient(baseUrl, { key });
  const disagreements: string[] = [];
  const seen = new Map<string, number>();
  /** Paused debates that never paused, with what their pause got: the run's own account of a miss. */
  const missedPauses: string[] = [];

  const runOne = async (index: number) => {
    const plan = PLANS[index % PLANS.length] as Plan;
    const marker = plan === 'fail' ? ` ${JUDGE_FAILS}` : plan === 'run' ? '' : ` ${SLOW}`;
    // The run's name keeps each mode's questions, and so its pause gates, its own: a gate opened by the
    // other mode's run would let a paused debate finish before its pause arrived.
    const question = `Should team ${index} of ${run} adopt plan ${index}?${marker}`;
    const created = expectBody(
      await client.POST('/api/debates', {
        // A paused debate has a round more: a pause accepted late, in round 2, still finds one to pause before.
        body: { question, agentCount: 3, maxRounds: plan.startsWith('pause') ? 4 : 3, skipCache: true },
      }),
      201,
    );
    const id = created.debateId;
    const turnsSeen = new Map<string, number>();
    let paused = false;
    const pauseReplies: string[] = [];

    const disagree = (event: SseMessage, read: unknown) =>
      disagreements.push(`${id} (${plan}) after ${event.event}#${event.id}: ${JSON.stringify(read)}`);

    const check = async (event: SseMessage) => {
      seen.set(event.event, (seen.get(event.event) ?? 0) + 1);
      // Sent with the read, not after it: a debate that finished first just misses its pause.
      const pausing =
        event.event === 'debate.started' && plan.startsWith('pause')
          ? pause(client, id, pauseReplies).finally(() => gateFor(question).open())
          : null;
      const debate = expectBody(await client.GET('/api/debates/{id}', { params: { path: { id } } }), 200);
      const status = debate.status;
      switch (event.event) {
        case 'debate.started':
          if (status === 'pending') disagree(event, { status });
          if (pausing) await pausing;
          break;
        case 'argument':
        case 'rebuttal': {
          const agent = String(event.data.agent);
          turnsSeen.set(agent, (turnsSeen.get(agent) ?? 0) + 1);
          const analytics = expectBody(
            await client.GET('/api/debates/{id}/analytics', { params: { path: { id } } }),
            200,
          );
          const stored = analytics.agents.find((a) => a.agent === agent)?.turns ?? 0;
          if (stored < (turnsSeen.get(agent) ?? 0)) disagree(event, { agent, stored });
          break;
        }
        case 'debate.paused':
          paused = true;
          if (status !== 'paused') disagree(event, { status });
          await command(client, id, plan === 'pause-skip' ? 'skip' : 'resume');
          break;
        case 'debate.resumed':
        case 'synthesis.started':
          if (status === 'paused' || status === 'pending') disagree(event, { status, paused });
          break;
        case 'verdict':
        case 'debate.completed': {
          const verdict = expectBody(
            await client.GET('/v1/verdicts/{id}', { params: { path: { id } } }),
            200,
          );
          if (
            status !== 'completed' ||
            debate.verdict?.recommendation !== 'PROCEED' ||
            debate.cost === null ||
            verdict.debate.status !== 'completed' ||
            verdict.verdict?.recommendation !== 'PROCEED'
          )
            disagree(event, { status, verdict: debate.verdict, v1: verdict.debate.status });
          break;
        }
        case 'debate.failed':
          if (status !== 'failed') disagree(event, { status });
          break;
        default:
          if (status === 'pending') disagree(event, { status });
      }
    };
    // Each event's reads start as it arrives, not once the previous event's reads are done.
    const checks: Promise<void>[] = [];
    const stream = await readSse(
      `${baseUrl}/api/debates/${id}/stream`,
      { authorization: `Bearer ${key}` },
      { onMessage: (event) => void checks.push(check(event)), timeoutMs: 90_000 },
    );
    await Promise.all(checks);
    if (plan.startsWith('pause') && !paused) {
      const events = stream.messages.map((m) => m.event).join(', ');
      missedPauses.push(`${id}: pause answered ${pauseReplies.join(' · ')}; events ${events}`);
    }
    expect(stream.closedByServer, `${id}: the stream ended`).toBe(true);
    expect(stream.messages.at(-1)?.event).toBe(plan === 'fail' ? 'debate.failed' : 'debate.completed');
  };

  await Promise.all(Array.from({ length: DEBATES }, (_, i) => runOne(i)));
  return { disagreements, seen, missedPauses };
}

/**
 * Pauses a debate that has just started. Its node may not take commands the moment `debate.started` is out,
 * or may not have stored the command within the bus's wait (409 DEBATE_NOT_RUNNING, "try again in a few
 * seconds"; or 200 with `accepted: false`, "try again"): tried again shortly, as a client would, for up to
 * 45 s (long enough to outlast a hand-over of the debate to a new job, during which no job takes
 * commands), each answer noted in `replies`. Any other answer fails the run.
 */
async function pause(client: ApiClient, id: string, replies: string[]) {
  const started = Date.now();
  for (;;) {
    const sent = await client.POST('/api/debates/{id}/commands', {
      params: { path: { id } },
      body: { type: 'pause' },
    });
    const after = `${Date.now() - started} ms`;
    if (sent.response.status === 200) {
      replies.push(`${after}: ${sent.data?.accepted ? 'accepted' : `refused (${sent.data?.message})`}`);
      if (sent.data?.accepted || sent.data?.state !== 'running.speaking') return;
      await sleep(100);
      continue;
    }
    replies.push(`${after}: ${sent.response.status} ${sent.error?.error.code}`);
    expect(sent.error?.error.code, JSON.stringify(sent.error ?? null)).toBe('DEBATE_NOT_RUNNING');
    if (Date.now() - started > 45_000) return;
    await sleep(100);
  }
}

async function command(client: ApiClient, id: string, type: 'resume' | 'skip') {
  const sent = await client.POST('/api/debates/{id}/commands', { params: { path: { id } }, body: { type } });
  expect(sent.response.status, JSON.stringify(sent.error ?? null)).toBe(200);
}

/** What a run must have exercised for its agreement to mean something. */
function expectEveryKindOfEvent(seen: Map<string, number>, missedPauses: string[]) {
  for (const type of ['debate.paused', 'debate.resumed', 'synthesis.started', 'argument', 'rebuttal']) {
    expect(
      seen.get(type) ?? 0,
      `${type}; paused debates that did not pause: ${missedPauses.join('\n')}`,
    ).toBeGreaterThan(0);
  }
  expect(seen.get('debate.completed')).toBe(DEBATES - DEBATES / PLANS.length);
  expect(seen.get('debate.failed')).toBe(DEBATES / PLANS.length);
}

describe('what a debate stream says, a read right after it already shows', () => {
  let fake: FakeLlmServer;
  beforeAll(async () => {
    fake = await startFakeLlmServer(script);
  });
  afterAll(async () => {
    await fake?.close();
  });

  describe.each(MODES)('in %s mode', (mode) => {
    let stack: Stack;
    beforeAll(async () => {
      stack = await startStack(mode, 'agree', { ...SETTINGS, ANTHROPIC_BASE_URL: fake.baseUrls.anthropic });
    });
    afterAll(async () => {
      await stack?.stop();
    });

    it('shows every streamed event in the debate, its verdict and its analytics read at once after it', async () => {
      const user = await registerUser(stack.baseUrl, 'agree');
      await Promise.all([
        stack.setPlan(user.email, 'pro'),
        stack.grantCredits(user.email, 500),
        stack.setRateLimit(user.email, 100_000),
      ]);
      const created = await apiClient(stack.baseUrl, { cookie: user.cookie }).POST('/api/keys', {
        body: { name: 'agree' },
      });
      const { disagreements, seen, missedPauses } = await followAndReadBack(
        stack.baseUrl,
        expectBody(created, 201).key,
        mode,
      );
      expect(disagreements).toEqual([]);
      expectEveryKindOfEvent(seen, missedPauses);
    }, 180_000);
  });
});
