import { describe, expect, it } from 'vitest';
import { replayKey } from './durable-log.ts';
import { packState, unpackState } from './snapshot.ts';
import { isTransientStorageError, LeaseLost, withStorageRetry } from './storage-retry.ts';

const turn = (agent: string, round: number) => ({
  agent,
  round,
  content: `${agent} says something long in round ${round}`,
  model: 'simulated/sonnet',
  targetAgent: round > 1 ? 'Skeptic' : null,
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

describe('storage retry', () => {
  it('treats connection trouble as transient, and bugs and lost leases as not', () => {
    expect(isTransientStorageError(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isTransientStorageError(Object.assign(new Error('shutdown'), { code: '57P01' }))).toBe(true);
    expect(isTransientStorageError(Object.assign(new Error('dup'), { code: '23505' }))).toBe(false);
    expect(isTransientStorageError(Object.assign(new Error('syntax'), { code: '42601' }))).toBe(false);
    expect(isTransientStorageError(new LeaseLost('d'))).toBe(false);
  });

  it('retries through a blip shorter than the tolerance and gives up after it', async () => {
    let calls = 0;
    const flaky = async () => {
      calls += 1;
      if (calls < 3) throw Object.assign(new Error('reset'), { code: 'ECONNRESET' });
      return 'stored';
    };
    expect(await withStorageRetry(flaky, { toleranceMs: 1000, firstDelayMs: 5 })).toBe('stored');
    expect(calls).toBe(3);
    const started = Date.now();
    await expect(
      withStorageRetry(() => Promise.reject(new Error('down')), { toleranceMs: 120, firstDelayMs: 10 }),
    ).rejects.toThrow('down');
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
