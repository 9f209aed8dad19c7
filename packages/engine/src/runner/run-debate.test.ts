import type { DebateEventBody } from '@verdict/contracts';
import { Clock, Context, Effect } from 'effect';
import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { seatPanel } from '../machine/panel.ts';
import type { LlmProvider } from '../providers/port.ts';
import { type SimulatedOptions, simulatedProvider } from '../providers/simulated.ts';
import { type PersistedState, packState, unpackState } from '../replay/snapshot.ts';
import type { EngineDeps } from './engine-deps.ts';
import { startDebate, statePath } from './run-debate.ts';

const QUESTION = 'Should we move our monolith to microservices this year?';
const fastPolicy = { timeoutMs: 500, retries: 1, backoffMs: 1 };

function run(
  options: {
    agents?: number;
    rounds?: number;
    provider?: LlmProvider;
    sim?: SimulatedOptions;
    nodeId?: string;
    services?: Context.Context<never>;
  } = {},
) {
  const events: DebateEventBody[] = [];
  const states: PersistedState[] = [];
  const deps: EngineDeps = {
    provider: options.provider ?? simulatedProvider(options.sim),
    judgeModel: 'simulated/opus',
    policy: fastPolicy,
    emit: (event) => events.push(event),
    onStateChange: (current) => {
      const state = current();
      if (state) states.push(state);
    },
    ...(options.nodeId ? { nodeId: options.nodeId } : {}),
    ...(options.services ? { services: options.services } : {}),
  };
  const debate = startDebate(
    {
      debateId: '3f1c1a52-6d0e-4d5e-9d43-0b7f5f0c2a11',
      question: QUESTION,
      context: null,
      mode: 'fast',
      seats: seatPanel(options.agents ?? 3, ['simulated/sonnet', 'simulated/haiku']),
      rounds: options.rounds ?? 1,
    },
    deps,
  );
  return { ...debate, events, states };
}

const types = (events: DebateEventBody[]) => events.map((e) => e.type);

describe('a debate on the simulated provider', () => {
  it('runs every agent, judges, and emits the events in order', async () => {
    const debate = run();
    const final = await debate.done;
    expect(final.value).toBe('completed');
    expect(final.context.verdict?.recommendation).toMatch(/PROCEED|REJECT|SPLIT_DECISION/);
    expect(final.context.verdict?.narrative).toContain('[simulated]');
    expect(types(debate.events)).toEqual([
      'debate.started',
      'round.started',
      'agent.thinking',
      'agent.thinking',
      'agent.thinking',
      'argument',
      'argument',
      'argument',
      'round.converged',
      'synthesis.started',
      'verdict',
      'debate.completed',
    ]);
    expect(debate.usage.llmCalls).toBe(4);
    expect(debate.history.map((h) => h.state)).toEqual([
      'pending',
      'running.speaking',
      'judging',
      'completed',
    ]);
  });

  it("dates its chart by the node's clock (Effect's Clock)", async () => {
    const at = Date.parse('2031-05-04T10:00:00.000Z');
    const real = Effect.runSync(Clock.clockWith(Effect.succeed));
    // Standing still at `at`; sleeps (the simulated provider's pacing) still take real time.
    const standing: Clock.Clock = Object.assign(Object.create(real), {
      currentTimeMillisUnsafe: () => at,
      currentTimeMillis: Effect.succeed(at),
    });
    const debate = run({ services: Context.make(Clock.Clock, standing) });
    await debate.done;
    expect(debate.history.length).toBeGreaterThan(2);
    expect(new Set(debate.history.map((h) => h.at))).toEqual(new Set(['2031-05-04T10:00:00.000Z']));
  });

  it('stores each step with its own history entry, so the stored history reaches the final state', async () => {
    const debate = run({ nodeId: 'node-a' });
    await debate.done;
    expect(debate.states.at(-1)?.history).toEqual(debate.history);
    expect(debate.history.at(-1)).toMatchObject({ state: 'completed', node: 'node-a' });
    // Every stored step already knows the state it stored.
    for (const state of debate.states) {
      expect(state.history.at(-1)?.state).toBe(statePath((state.machine as { value: unknown }).value));
    }
  });

  it('makes its persisted state when asked, as of the latest step, and keeps the one of its stop', async () => {
    let current: (() => PersistedState | null) | null = null;
    let steps = 0;
    const debate = startDebate(
      {
        debateId: '5a7c4b11-2f0e-4a7d-8c55-7d1e2a9b3c40',
        question: QUESTION,
        context: null,
        mode: 'fast',
        seats: seatPanel(2, ['simulated/sonnet']),
        rounds: 2,
      },
      {
        provider: simulatedProvider({ firstTokenMs: 50 }),
        judgeModel: 'simulated/opus',
        policy: fastPolicy,
        emit: () => {},
        onStateChange: (latest) => {
          current = latest;
          steps += 1;
        },
      },
    );
    debate.done.catch(() => {});
    expect(steps).toBeGreaterThan(0);
    const asked = current as unknown as () => PersistedState | null;
    const state = asked();
    expect(statePath((state?.machine as { value: unknown } | undefined)?.value)).toBe(
      statePath(debate.actor.getSnapshot().value),
    );
    expect(state?.history).toEqual(debate.history);
    debate.stop();
    expect(debate.actor.getSnapshot().status).toBe('stopped');
    // Its children are stopped with it: a state made now would restore a round that never reports.
    const atStop = asked();
    expect(atStop).toEqual(state);
    expect(JSON.stringify(atStop)).not.toContain('"stopped"');
  });

  it('seats distinct roles and alternates models across the panel', () => {
    const seats = seatPanel(8, ['a', 'b']);
    expect(new Set(seats.map((s) => s.name)).size).toBe(8);
    expect(seats.map((s) => s.model)).toEqual(['a', 'b', 'a', 'b', 'a', 'b', 'a', 'b']);
    expect(new Set(seats.map((s) => s.stance))).toEqual(new Set(['for', 'against', 'mixed']));
  });

  it('has round-two agents rebut a named agent of the first round', async () => {
    const debate = run({ rounds: 2 });
    await debate.done;
    const rebuttals = debate.events.filter((e) => e.type === 'rebuttal');
    expect(rebuttals).toHaveLength(3);
    const firstRoundAgents = debate.events.filter((e) => e.type === 'argument').map((e) => e.data.agent);
    for (const r of rebuttals) {
      expect(firstRoundAgents).toContain(r.data.targetAgent);
      expect(r.data.targetAgent).not.toBe(r.data.agent);
      expect(r.data.content).toContain(`Responding to ${r.data.targetAgent}`);
    }
  });

  it('pauses after the in-flight responses, queues injected content for the next round, and resumes', async () => {
    const debate = run({ rounds: 2, sim: { firstTokenMs: 30 } });
    await waitFor(debate.actor, (s) => s.matches({ running: 'speaking' }));
    debate.actor.send({ type: 'PAUSE' });
    const paused = await waitFor(debate.actor, (s) => s.matches({ running: 'paused' }));
    expect(paused.context.turns).toHaveLength(3); // the round finished before pausing
    debate.actor.send({ type: 'INJECT', content: 'The budget was just cut by half' });
    await new Promise((r) => setTimeout(r, 60));
    expect(debate.actor.getSnapshot().matches({ running: 'paused' })).toBe(true);
    expect(debate.events.filter((e) => e.type === 'agent.thinking')).toHaveLength(3); // nothing ran meanwhile
    debate.actor.send({ type: 'RESUME' });
    const final = await debate.done;
    expect(final.value).toBe('completed');
    const round2 = debate.events.find((e) => e.type === 'round.started' && e.data.round === 2);
    expect(round2?.data).toEqual({ round: 2, injected: ['The budget was just cut by half'] });
    const rebuttals = debate.events.filter((e) => e.type === 'rebuttal');
    expect(rebuttals.every((e) => e.data.content.includes('The budget was just cut by half'))).toBe(true);
    expect(types(debate.events)).toContain('debate.paused');
    expect(types(debate.events)).toContain('debate.resumed');
  });

  it('skips the remaining rounds and forces the verdict at once', async () => {
    const debate = run({ rounds: 3, sim: { firstTokenMs: 20 } });
    const afterRound1 = await waitFor(debate.actor, (s) => s.context.round === 2);
    expect(afterRound1.context.turns).toHaveLength(3);
    debate.actor.send({ type: 'SKIP' });
    const final = await debate.done;
    expect(final.value).toBe('completed');
    expect(final.context.turns.every((t) => t.round < 3)).toBe(true);
    expect(debate.events.find((e) => e.type === 'synthesis.started')?.data).toEqual({ skipped: true });
  });

  it('goes on without a debater whose provider fails for good, and the verdict names it', async () => {
    const debate = run({
      sim: { fail: (req) => (req.hints?.agent === 'Skeptic' ? 'server' : null) },
    });
    const final = await debate.done;
    expect(final.value).toBe('completed');
    expect(final.context.verdict?.missingAgents).toEqual(['Skeptic']);
    expect(debate.events.filter((e) => e.type === 'argument')).toHaveLength(2);
    expect(debate.events.find((e) => e.type === 'agent.failed')?.data.agent).toBe('Skeptic');
  });

  it('fails with PROVIDER_ERROR when the judge fails for good', async () => {
    const debate = run({ sim: { fail: (req) => (req.json ? 'server' : null) } });
    const final = await debate.done;
    expect(final.value).toBe('failed');
    expect(final.context.failure?.code).toBe('PROVIDER_ERROR');
    expect(debate.events.at(-1)).toMatchObject({ type: 'debate.failed', data: { code: 'PROVIDER_ERROR' } });
  });

  it('fails with PROVIDER_TIMEOUT when the judge times out every attempt', async () => {
    const debate = run({ sim: { fail: (req) => (req.json ? 'timeout' : null) } });
    const final = await debate.done;
    expect(final.context.failure?.code).toBe('PROVIDER_TIMEOUT');
  });

  it('fails when every debater fails, without asking the judge', async () => {
    const debate = run({ sim: { fail: (req) => (req.json ? null : 'rate_limited') } });
    const final = await debate.done;
    expect(final.value).toBe('failed');
    expect(types(debate.events)).not.toContain('synthesis.started');
  });

  it('re-asks the judge after invalid JSON and stores only a valid verdict', async () => {
    const simulated = simulatedProvider();
    let judgeCalls = 0;
    const sloppy: LlmProvider = {
      name: 'sloppy',
      complete: async (request) => {
        if (!request.json) return simulated.complete(request);
        judgeCalls++;
        if (judgeCalls === 1)
          return {
            text: 'Here is my verdict: {"recommendation": "PROCEED",',
            model: 'x',
            inputTokens: 1,
            outputTokens: 1,
          };
        const good = await simulated.complete(request);
        // percent confidence and a lower-case enum are repaired, not re-asked
        const parsed = JSON.parse(good.text);
        return {
          ...good,
          text: `\`\`\`json\n${JSON.stringify({ ...parsed, confidence: 80, recommendation: 'split decision' })}\n\`\`\``,
        };
      },
    };
    const final = await run({ provider: sloppy }).done;
    expect(final.value).toBe('completed');
    expect(judgeCalls).toBe(2);
    expect(final.context.verdict?.confidence).toBe(0.8);
    expect(final.context.verdict?.recommendation).toBe('SPLIT_DECISION');
  });

  it('is deterministic: the same question gives the same transcript', async () => {
    const a = run();
    const b = run();
    await Promise.all([a.done, b.done]);
    const text = (events: DebateEventBody[]) =>
      events.filter((e) => e.type === 'argument').map((e) => e.data.content);
    expect(text(a.events)).toEqual(text(b.events));
  });

  it('restored while judging, asks only the judge again and emits nothing twice', async () => {
    const simulated = simulatedProvider({ firstTokenMs: 0 });
    let holdJudge = true;
    const asked: string[] = [];
    const provider: LlmProvider = {
      name: 'test',
      complete: (request) => {
        asked.push(request.task);
        if (request.task === 'synthesizer' && holdJudge) {
          return new Promise((_, reject) =>
            request.signal.addEventListener('abort', () => reject(new Error('aborted'))),
          );
        }
        return simulated.complete(request);
      },
    };
    const first = run({ provider, nodeId: 'node-a' });
    await waitFor(first.actor, (s) => s.matches('judging'));
    const stored = JSON.parse(
      packState({ machine: first.actor.getPersistedSnapshot(), history: first.history }),
    );
    const turns = first.actor.getSnapshot().context.turns;
    first.done.catch(() => {}); // settles as "stopped before it finished"
    first.actor.stop(); // the node dies while the judge is thinking
    holdJudge = false;
    asked.length = 0;

    const restoredState = unpackState(stored, turns);
    const events: DebateEventBody[] = [];
    const second = startDebate(
      first.actor.getSnapshot().context,
      {
        provider,
        judgeModel: 'simulated/opus',
        policy: fastPolicy,
        emit: (e) => events.push(e),
        nodeId: 'node-b',
      },
      {
        machine: restoredState.machine,
        history: restoredState.history,
        settled: new Map(),
        usage: { ...first.usage },
      },
    );
    const final = await second.done;
    expect(final.value).toBe('completed');
    expect(asked).toEqual(['synthesizer']);
    expect(types(events)).toEqual(['verdict', 'debate.completed']);
    expect(second.history.at(-2)).toMatchObject({
      event: 'xstate.restore',
      state: 'judging',
      node: 'node-b',
    });
    // Each entry names the node that moved the actor there: the stored ones the first, the rest the second.
    expect(second.history.map((h) => h.node)).toEqual([
      ...restoredState.history.map(() => 'node-a'),
      'node-b',
      'node-b',
    ]);
    expect(second.usage.llmCalls).toBe(first.usage.llmCalls + 1);
  });

  it('restored already final, stores the restore in its history at once (nothing else will move it)', async () => {
    const first = run({});
    const final = await first.done;
    expect(final.value).toBe('completed');
    const stored = JSON.parse(
      packState({ machine: first.actor.getPersistedSnapshot(), history: first.history }),
    );
    const restoredState = unpackState(stored, final.context.turns);
    const states: PersistedState[] = [];
    const events: DebateEventBody[] = [];
    const second = startDebate(
      final.context,
      {
        provider: simulatedProvider({ firstTokenMs: 0 }),
        judgeModel: 'simulated/opus',
        policy: fastPolicy,
        emit: (e) => events.push(e),
        onStateChange: (current) => {
          const state = current();
          if (state) states.push(state);
        },
      },
      {
        machine: restoredState.machine,
        history: restoredState.history,
        settled: new Map(),
        usage: first.usage,
      },
    );
    expect((await second.done).value).toBe('completed');
    expect(events).toEqual([]);
    expect(states.at(-1)?.history.at(-1)).toMatchObject({ event: 'xstate.restore', state: 'completed' });
  });
});
