import { Effect, Exit } from 'effect';
import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { seatPanel } from '../machine/panel.ts';
import { simulatedProvider } from '../providers/simulated.ts';
import { DEFAULT_CALL_POLICY } from '../runner/llm-call.ts';
import { type EngineDeps, startDebate } from '../runner/run-debate.ts';
import { stallGuard, stallLimitMs } from './stall-guard.ts';

const LIMIT_MS = 300;

/** A debate on the simulated provider (labelled so in its verdict), counting its actor's snapshots. */
function debate(deps: Partial<EngineDeps> = {}) {
  let steps = 0;
  const running = startDebate(
    {
      debateId: '0b6c1f4e-4c1a-4f7e-9a59-2f0d5a6c7e11',
      question: 'Should the stall guard hand back a debate that stopped moving?',
      context: null,
      mode: 'fast',
      seats: seatPanel(2, ['simulated/sonnet']),
      rounds: 2,
    },
    {
      provider: simulatedProvider({ firstTokenMs: 20 }),
      judgeModel: 'simulated/opus',
      policy: { timeoutMs: 500, retries: 1, backoffMs: 1 },
      emit: () => {},
      onStateChange: () => {
        steps += 1;
      },
      ...deps,
    },
  );
  // Stopped by a test before its end, the actor's `done` rejects: that is expected here.
  running.done.catch(() => {});
  return { running, steps: () => steps };
}

describe('the stall guard', () => {
  it('fails a debate whose actor stopped moving while running, naming where it stopped', async () => {
    // A round's first turn reads the attachments: a read that never answers holds the round for ever.
    const { running, steps } = debate({ readAttachments: () => new Promise(() => {}) });
    const started = Date.now();
    const exit = await Effect.runPromiseExit(stallGuard(running, steps, LIMIT_MS));
    expect(Date.now() - started).toBeGreaterThanOrEqual(LIMIT_MS);
    expect(Exit.isFailure(exit) && JSON.stringify(exit.cause)).toContain('Stalled');
    expect(JSON.stringify(exit)).toContain('speaking');
    running.actor.stop();
  });

  it('lets a debate that keeps moving run to its end, however long it takes in all', async () => {
    // Each call takes well under the limit; the whole debate (two rounds, then the judge) takes longer.
    const { running, steps } = debate({ provider: simulatedProvider({ firstTokenMs: 200 }) });
    const started = Date.now();
    const outcome = await Effect.runPromise(
      Effect.raceFirst(
        Effect.promise(() => running.done).pipe(Effect.map((final) => String(final.value))),
        stallGuard(running, steps, LIMIT_MS).pipe(Effect.catch((stalled) => Effect.succeed(stalled._tag))),
      ),
    );
    expect(outcome).toBe('completed');
    expect(Date.now() - started).toBeGreaterThan(LIMIT_MS);
  });

  it('never fails a paused debate, which waits for its caller', async () => {
    const { running, steps } = debate();
    running.actor.send({ type: 'PAUSE' });
    await waitFor(running.actor, (s) => s.matches({ running: 'paused' }));
    const exit = await Effect.runPromiseExit(
      stallGuard(running, steps, LIMIT_MS).pipe(Effect.timeout(LIMIT_MS * 4)),
    );
    // Timed out waiting, not stalled.
    expect(JSON.stringify(exit)).not.toContain('Stalled');
    expect(Exit.isFailure(exit)).toBe(true);
    running.actor.stop();
  });

  it('allows the longest quiet step twice: a judge call with every retry, then its stores', () => {
    // 4 attempts of 60 s, back-offs of 0.5 + 1 + 2 s, two storage tolerances of 30 s; doubled.
    expect(stallLimitMs(DEFAULT_CALL_POLICY, 30_000)).toBe(2 * (4 * 60_000 + 3500 + 60_000));
  });
});
