import { describe, expect, it } from 'vitest';
import { buildTimeline, type ChartEvent, handOverText, type Transition } from './chart-moments.ts';

const at = (ms: number) => new Date(Date.UTC(2026, 0, 1, 12, 0, 0, ms)).toISOString();
const transition = (ms: number, event: string, state: string, node = 'a'): Transition => ({
  at: at(ms),
  event,
  state,
  node,
});
const event = (ms: number, seq: number, type: string, data: Record<string, unknown> = {}): ChartEvent => ({
  at: at(ms),
  seq,
  type,
  data,
});
const argument = (ms: number, seq: number, agent: string) =>
  event(ms, seq, 'argument', { agent, round: 1, claimId: `1-1-${agent}`, content: `${agent} says so` });

describe('the state-chart timeline', () => {
  it('merges transitions and events in time order, a transition first when they tie', () => {
    const timeline = buildTimeline(
      [transition(0, 'xstate.init', 'pending'), transition(10, 'START', 'running.speaking')],
      [event(10, 1, 'debate.started'), event(12, 2, 'round.started')],
    );
    expect(timeline.moments.map((m) => m.key)).toEqual(['t0', 't1', 'e1', 'e2']);
    expect(timeline.stateAt).toEqual(['pending', 'running.speaking', 'running.speaking', 'running.speaking']);
    expect(timeline.previousStateAt).toEqual([null, 'pending', 'pending', 'pending']);
  });

  it('counts the turns spoken by each moment, for a transcript that grows as the timeline is scrubbed', () => {
    const timeline = buildTimeline(
      [transition(0, 'START', 'running.speaking'), transition(50, 'ROUND_DONE', 'judging')],
      [argument(10, 1, 'Ada'), event(20, 2, 'agent.thinking'), argument(30, 3, 'Bo')],
    );
    expect(timeline.turns.map((t) => t.agent)).toEqual(['Ada', 'Bo']);
    expect(timeline.turnsAt).toEqual([0, 1, 1, 2, 2]);
    expect(timeline.turns[0]).toMatchObject({ claimId: '1-1-Ada', round: 1, targetAgent: null });
  });

  it('marks a restore with the node that took over and the one that stopped', () => {
    const timeline = buildTimeline(
      [
        transition(0, 'START', 'running.speaking', 'host-a:1:aa'),
        transition(90, 'xstate.restore', 'running.speaking', 'host-b:2:bb'),
        transition(99, 'ROUND_DONE', 'judging', 'host-b:2:bb'),
      ],
      [],
    );
    const handOvers = timeline.moments.map((m) => (m.kind === 'transition' ? m.handOver : null));
    expect(handOvers).toEqual([null, { restored: true, from: 'host-a:1:aa', to: 'host-b:2:bb' }, null]);
    expect(handOverText({ restored: true, from: 'host-a:1:aa', to: 'host-b:2:bb' })).toBe(
      'restored on node host-b:2:bb after node host-a:1:aa stopped',
    );
    expect(handOverText({ restored: true, from: null, to: 'host-a:1:aa' })).toBe(
      'restored on node host-a:1:aa from its last snapshot',
    );
  });
});
