import { describe, expect, it } from 'vitest';
import { describeChart } from './chart.ts';

describe('the debate state chart', () => {
  const chart = describeChart();
  const state = (path: string) => chart.states.find((s) => s.path === path);

  it('lists every state with its type, from pending to the two final states', () => {
    expect(chart.initial).toBe('pending');
    expect(chart.states.map((s) => s.path)).toEqual([
      'pending',
      'running',
      'running.speaking',
      'running.paused',
      'judging',
      'completed',
      'failed',
    ]);
    expect(state('completed')?.type).toBe('final');
    expect(state('running')?.initial).toBe('running.speaking');
  });

  it('shows the commands where they apply and the invoked steps', () => {
    expect(state('running.paused')?.transitions.find((t) => t.event === 'RESUME')?.targets).toEqual([
      'running.speaking',
    ]);
    expect(state('running.speaking')?.transitions.find((t) => t.event === 'SKIP')?.targets).toEqual([
      'judging',
    ]);
    expect(state('running.speaking')?.invokes).toEqual(['runRound']);
    expect(state('judging')?.invokes).toEqual(['judge']);
    expect(chart.events).toEqual(expect.arrayContaining(['PAUSE', 'RESUME', 'SKIP', 'INJECT', 'START']));
  });

  it('is plain data that survives JSON', () => {
    expect(JSON.parse(JSON.stringify(chart))).toEqual(chart);
  });
});
