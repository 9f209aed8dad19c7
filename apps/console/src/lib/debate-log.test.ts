import { describe, expect, it } from 'vitest';
import { logOf } from './debate-log.ts';

describe("a debate's log", () => {
  it('keeps one convergence point per round, the stopping one included, whether live or replayed', () => {
    const log = logOf([
      { type: 'round.converged', id: 1, data: { round: 1, score: 0.4, threshold: 0.8, stopping: false } },
      { type: 'round.converged', id: 2, data: { round: 2, score: 0.9, threshold: 0.8, stopping: true } },
      // A reconnect sends the last event again: already applied, it changes nothing.
      { type: 'round.converged', id: 2, data: { round: 2, score: 0.9, threshold: 0.8, stopping: true } },
    ]);
    expect(log.convergence).toEqual([
      { round: 1, score: 0.4, threshold: 0.8, stopping: false },
      { round: 2, score: 0.9, threshold: 0.8, stopping: true },
    ]);
  });
});
