import type { DebateEventBody, TurnPosition } from '@verdict/contracts';
import { describe, expect, it } from 'vitest';
import { seatPanel } from '../machine/panel.ts';
import { positionLine } from '../machine/position.ts';
import type { LlmProvider, LlmRequest } from '../providers/port.ts';
import { simulatedProvider } from '../providers/simulated.ts';
import { startDebate } from './run-debate.ts';

const QUESTION = 'Should the team adopt a four-day week this spring?';
const MODELS = ['anthropic/claude-sonnet-4', 'openai/gpt-4o', 'google/gemini-2.5-pro'];

/**
 * Debaters answer with `positionOf(agent, round)`; the judge is the simulated one. Every request is kept,
 * so a test can read what each prompt showed.
 */
function scripted(positionOf: (agent: string, round: number) => TurnPosition | null) {
  const requests: LlmRequest[] = [];
  const simulated = simulatedProvider();
  const provider: LlmProvider = {
    name: 'scripted',
    complete: async (request) => {
      requests.push(request);
      if (request.task !== 'debater' || !request.hints) return simulated.complete(request);
      const { agent, round } = request.hints;
      const position = positionOf(agent, round);
      const argument = `${agent} argues its case for round ${round} (secret-${agent}-${round}).`;
      const text = position ? `${argument}\n${positionLine(position)}` : argument;
      return { text, model: request.model, inputTokens: 100, outputTokens: 50 };
    },
  };
  return { provider, requests };
}

function run(
  provider: LlmProvider,
  options: { rounds?: number; earlyStop?: { threshold: number } | null; options?: string[] } = {},
) {
  const events: DebateEventBody[] = [];
  const debate = startDebate(
    {
      debateId: '5a7e0c1e-2f55-4d5c-9a0e-6b1f7d1c2e33',
      question: QUESTION,
      context: null,
      mode: 'thorough',
      seats: seatPanel(3, MODELS),
      rounds: options.rounds ?? 3,
      earlyStop: options.earlyStop ?? null,
      options: options.options ?? null,
    },
    {
      provider,
      judgeModel: 'anthropic/claude-opus-4',
      policy: { timeoutMs: 500, retries: 1, backoffMs: 1 },
      emit: (event) => events.push(event),
    },
  );
  return { ...debate, events };
}

const agreeing = () => ({ recommendation: 'PROCEED', stance: 'for', confidence: 0.8 }) as const;
const ownLean = (agent: string): TurnPosition =>
  agent === 'Advocate'
    ? { recommendation: 'PROCEED', stance: 'for' }
    : agent === 'Skeptic'
      ? { recommendation: 'REJECT', stance: 'against' }
      : { recommendation: 'RECONSIDER', stance: 'mixed' };

const converged = (events: DebateEventBody[]) =>
  events.flatMap((e) => (e.type === 'round.converged' ? [e.data] : []));

describe('convergence and early stop', () => {
  it('stops after the round whose positions converged: the judge runs at once and the verdict says why', async () => {
    const { provider, requests } = scripted(agreeing);
    const debate = run(provider, { earlyStop: { threshold: 0.8 } });
    const final = await debate.done;
    expect(final.value).toBe('completed');
    expect(converged(debate.events)).toEqual([{ round: 1, score: 1, threshold: 0.8, stopping: true }]);
    expect(debate.events.some((e) => e.type === 'round.started' && e.data.round === 2)).toBe(false);
    expect(final.context.verdict?.stoppedEarly).toEqual({
      afterRound: 1,
      plannedRounds: 3,
      convergence: 1,
      threshold: 0.8,
    });
    expect(final.context.verdict?.convergence).toEqual([{ round: 1, score: 1 }]);
    expect(requests.filter((r) => r.task === 'debater')).toHaveLength(3); // 6 turns saved
    expect(debate.history.map((h) => h.state)).toEqual([
      'pending',
      'running.speaking',
      'judging',
      'completed',
    ]);
    // The turns are stored and streamed without their POSITION line, with the position beside them.
    const argument = debate.events.find((e) => e.type === 'argument');
    expect(argument?.type === 'argument' && argument.data.content).not.toContain('POSITION');
    expect(argument?.type === 'argument' && argument.data.position).toEqual(agreeing());
  });

  it('runs every round when early stop was not asked for, and measures each', async () => {
    const { provider } = scripted(agreeing);
    const debate = run(provider, { earlyStop: null });
    const final = await debate.done;
    expect(converged(debate.events).map((c) => [c.round, c.score, c.stopping])).toEqual([
      [1, 1, false],
      [2, 1, false],
      [3, 1, false],
    ]);
    expect(final.context.verdict?.stoppedEarly).toBeUndefined();
    expect(final.context.verdict?.convergence).toHaveLength(3);
  });

  it('goes on while the panel is split, and stops in the round it comes together', async () => {
    const { provider } = scripted((agent, round) => (round >= 2 ? agreeing() : ownLean(agent)));
    const debate = run(provider, { earlyStop: { threshold: 0.9 } });
    const final = await debate.done;
    const series = converged(debate.events);
    expect(series.map((c) => c.stopping)).toEqual([false, true]);
    expect(series[0]?.score).toBeLessThan(0.9);
    expect(final.context.verdict?.stoppedEarly?.afterRound).toBe(2);
    expect(final.context.round).toBe(2);
  });

  it('never stops after the last round (nothing left to skip) and counts turns without a position as unknown', async () => {
    const { provider } = scripted(() => null);
    const debate = run(provider, { rounds: 2, earlyStop: { threshold: 0.5 } });
    const final = await debate.done;
    expect(converged(debate.events).map((c) => c.score)).toEqual([0, 0]);
    expect(final.context.verdict?.stoppedEarly).toBeUndefined();
  });

  it('measures a comparison by its rankings', async () => {
    const { provider, requests } = scripted(() => ({ ranking: ['B', 'A', 'C'] }));
    const debate = run(provider, { earlyStop: { threshold: 0.8 }, options: ['Rent', 'Buy', 'Wait'] });
    const final = await debate.done;
    expect(final.context.verdict?.stoppedEarly?.convergence).toBe(1);
    const prompt = requests.find((r) => r.task === 'debater')?.prompt ?? '';
    expect(prompt).toContain('Options: A = Rent; B = Buy; C = Wait');
    expect(prompt).toContain('POSITION: {"ranking": ["A", "B", "C"]}');
  });

  it('keeps round one blind and the judge anonymous: no agent sees another’s opening, no model is named', async () => {
    const { provider, requests } = scripted(ownLean);
    const debate = run(provider, { rounds: 2 });
    await debate.done;
    const debaters = requests.filter((r) => r.task === 'debater');
    for (const request of debaters.filter((r) => r.hints?.round === 1)) {
      expect(`${request.system}\n${request.prompt}`).not.toMatch(/secret-/);
    }
    // From round two each agent reads the others' openings.
    const round2 = debaters.find((r) => r.hints?.round === 2);
    expect(round2?.prompt).toMatch(/secret-\w+-1/);
    const judge = requests.find((r) => r.task === 'synthesizer');
    const judgeText = `${judge?.system}\n${judge?.prompt}`;
    expect(judgeText).toContain('Round 2, Skeptic');
    for (const name of [...MODELS.flatMap((m) => m.split('/')), 'claude', 'gpt', 'gemini', 'opus']) {
      expect(judgeText.toLowerCase()).not.toContain(name.toLowerCase());
    }
  });
});
