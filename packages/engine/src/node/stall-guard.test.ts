import { Deferred, Effect, Option } from 'effect';
import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { seatPanel } from '../machine/panel.ts';
import { simulatedProvider } from '../providers/simulated.ts';
import type { EngineDeps } from '../runner/engine-deps.ts';
import { DEFAULT_CALL_POLICY } from '../runner/llm-call.ts';
import { startDebate } from '../runner/run-debate.ts';
import { type Stalled, stallLimitMs, stallWatch } from './stall-guard.ts';

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

/** Watches `running` with a watch of its own for `forMs` at most: the stall it was told of, or null. */
function watched(running: ReturnType<typeof debate>, forMs: number) {
  return Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const watch = yield* stallWatch(LIMIT_MS);
        const told = yield* Deferred.make<Stalled>();
        yield* watch.watch({
          debateId: 'watched',
          running: running.running,
          steps: running.steps,
          onStall: (stalled) => Deferred.doneUnsafe(told, Effect.succeed(stalled)),
        });
        const outcome = yield* Effect.raceFirst(
          Deferred.await(told),
          Effect.promise(() => running.running.done.then(() => null)),
        ).pipe(Effect.timeoutOption(forMs));
        return Option.getOrNull(outcome);
      }),
    ),
  );
}

describe('the stall watch', () => {
  it('tells a debate whose actor stopped moving while running, naming where it stopped', async () => {
    // A round's first turn reads the attachments: a read that never answers holds the round for ever.
    const stuck = debate({ readAttachments: () => new Promise(() => {}) });
    const stalled = await watched(stuck, LIMIT_MS * 10);
    expect(stalled?._tag).toBe('Stalled');
    expect(stalled?.quietMs).toBeGreaterThanOrEqual(LIMIT_MS);
    expect(stalled?.state).toContain('speaking');
    stuck.running.actor.stop();
  });

  it('lets a debate that keeps moving run to its end, however long it takes in all', async () => {
    // Each call takes well under the limit; the whole debate (two rounds, then the judge) takes longer.
    const moving = debate({ provider: simulatedProvider({ firstTokenMs: 200 }) });
    const started = performance.now();
    expect(await watched(moving, LIMIT_MS * 20)).toBeNull();
    expect(String((await moving.running.done).value)).toBe('completed');
    expect(performance.now() - started).toBeGreaterThan(LIMIT_MS);
  });

  it('never tells a paused debate, which waits for its caller', async () => {
    const paused = debate();
    paused.running.actor.send({ type: 'PAUSE' });
    await waitFor(paused.running.actor, (s) => s.matches({ running: 'paused' }));
    // Watched for four times the limit: not told.
    expect(await watched(paused, LIMIT_MS * 4)).toBeNull();
    expect(paused.running.actor.getSnapshot().matches({ running: 'paused' })).toBe(true);
    paused.running.actor.stop();
  });

  it('allows the longest quiet step twice: a judge call with every retry, then its stores', () => {
    // 4 attempts of 60 s, back-offs of 0.5 + 1 + 2 s, two storage tolerances of 30 s; doubled.
    expect(stallLimitMs(DEFAULT_CALL_POLICY, 30_000)).toBe(2 * (4 * 60_000 + 3500 + 60_000));
  });
});
