import { describe, expect, it } from 'vitest';
import { retryingDeadlocks } from './deadlock-retry.ts';

const deadlock = () => Object.assign(new Error('deadlock detected'), { code: '40P01' });

describe('retryingDeadlocks', () => {
  it('runs a transaction again after it was a deadlock victim, and answers what the next run answers', async () => {
    let runs = 0;
    const answer = await retryingDeadlocks(async () => {
      runs++;
      if (runs < 3) throw new Error('the ORM wrapped it', { cause: deadlock() });
      return 'done';
    });
    expect({ answer, runs }).toEqual({ answer: 'done', runs: 3 });
  });

  it('gives up after the third deadlock, with that error', async () => {
    let runs = 0;
    const run = retryingDeadlocks(async () => {
      runs++;
      throw deadlock();
    });
    await expect(run).rejects.toThrow('deadlock detected');
    expect(runs).toBe(3);
  });

  it('never runs again after any other failure', async () => {
    let runs = 0;
    const run = retryingDeadlocks(async () => {
      runs++;
      throw Object.assign(new Error('unique violation'), { code: '23505' });
    });
    await expect(run).rejects.toThrow('unique violation');
    expect(runs).toBe(1);
  });
});
