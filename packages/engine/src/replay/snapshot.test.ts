import { describe, expect, it } from 'vitest';
import { replayKey } from './replay.ts';
import { packState, unpackState } from './snapshot.ts';

const turn = (agent: string, round: number) => ({
  agent,
  round,
  content: `${agent} says something long in round ${round}`,
  model: 'simulated/sonnet',
  targetAgent: round > 1 ? 'Skeptic' : null,
  position: { recommendation: 'PROCEED' as const, stance: 'for' as const, confidence: 0.7 },
});

describe('persisted debate state', () => {
  it('stores turns as references and fills them back in from the stored turns', () => {
    const turns = [turn('Advocate', 1), turn('Skeptic', 1), turn('Advocate', 2)];
    const state = {
      machine: {
        context: { turns, round: 2 },
        children: { r: { snapshot: { input: { previous: turns.slice(0, 2) } } } },
      },
      history: [{ at: 'now', event: 'START', state: 'running.speaking' }],
    };
    const packed = packState(state);
    expect(packed).not.toContain('says something long');
    expect(JSON.parse(packed).machine.context.turns[0]).toEqual({ $turn: '1:Advocate' });
    expect(unpackState(JSON.parse(packed), turns)).toEqual(state);
  });

  it('refuses a snapshot that refers to a turn nobody stored', () => {
    const packed = JSON.parse(packState({ machine: { turns: [turn('Advocate', 1)] }, history: [] }));
    expect(() => unpackState(packed, [])).toThrow(/1:Advocate/);
  });

  it('gives the events a restored round emits again a key, and transition events none', () => {
    expect(replayKey({ type: 'argument', data: { agent: 'A', round: 1, content: '', model: '' } })).toBe(
      replayKey({
        type: 'rebuttal',
        data: { agent: 'A', round: 1, content: '', model: '', targetAgent: 'B' },
      }),
    );
    expect(replayKey({ type: 'agent.thinking', data: { agent: 'A', round: 2 } })).toBe('thinking:2:A');
    expect(replayKey({ type: 'debate.paused', data: { afterRound: 1 } })).toBeNull();
  });
});
