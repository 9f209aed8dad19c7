import * as Cause from 'effect/Cause';
import * as Effect from 'effect/Effect';
import * as Exit from 'effect/Exit';
import type { RoundInput } from '../machine/machine.ts';
import type { RoundReport } from '../machine/machine-types.ts';
import type { Seat } from '../machine/panel.ts';
import { type SettledTurn, settledKey } from '../replay/replay.ts';
import { debateSpan } from '../tracing/spans.ts';
import type { ActorShared } from './actor-shared.ts';
import type { ProviderFailure } from './llm-call.ts';
import { roundReading } from './round-reading.ts';
import { speak, type TurnContext, turnEvent } from './turn.ts';

/** What the machine's `runRound` actor does for one debate (debate-actors.ts): a round, and its stop. */
export type RunRound = (input: RoundInput, sendBack: (report: RoundReport) => void) => () => void;

/**
 * A debate's rounds, as the machine's `runRound` actor runs them: every seat of a round speaks at once (a seat settled before a
 * restore reports its turn again instead), each finished turn is stored before the machine hears of it, and
 * the round reports ROUND_DONE — or, failing for a reason the debate cannot go on from, tells `onFatal`.
 */
export function roundsOf(shared: ActorShared, debateId: string, settled: Map<string, SettledTurn>): RunRound {
  const { deps, attempt, services } = shared;
  const turns: TurnContext = { shared, debateId, reading: roundReading(shared, debateId) };

  /** A seat whose turn was settled before a restore: report it again (events already stored are dropped). */
  const replay = (seat: Seat, round: RoundInput, sendBack: (report: RoundReport) => void) =>
    Effect.sync(() => {
      const before = settled.get(settledKey(seat.name, round.round));
      if (!before) return false;
      if ('turn' in before) {
        deps.emit({ type: 'agent.thinking', data: { agent: seat.name, round: round.round } });
        deps.emit(turnEvent(before.turn, attempt));
        sendBack({ type: 'TURN_DONE', turn: before.turn });
      } else {
        deps.emit({
          type: 'agent.failed',
          data: { agent: seat.name, round: round.round, reason: before.failed },
        });
        sendBack({ type: 'TURN_FAILED', agent: seat.name, round: round.round, reason: before.failed });
      }
      return true;
    });

  return (input, sendBack) => {
    const controller = new AbortController();
    const program = Effect.forEach(
      input.seats,
      (seat) =>
        Effect.flatMap(replay(seat, input, sendBack), (replayed) => (replayed ? Effect.void : spoken(seat))),
      { concurrency: 'unbounded', discard: true },
    ).pipe(debateSpan('debate.round', { 'debate.id': debateId, 'debate.round': input.round }));
    function spoken(seat: Seat) {
      return speak(turns, seat, input).pipe(
        Effect.tap((turn) => Effect.sync(() => sendBack({ type: 'TURN_DONE', turn }))),
        Effect.catchTag('ProviderFailure', (failure: ProviderFailure) =>
          Effect.sync(() => {
            deps.emit({
              type: 'agent.failed',
              data: { agent: seat.name, round: input.round, reason: failure.message },
            });
            sendBack({
              type: 'TURN_FAILED',
              agent: seat.name,
              round: input.round,
              reason: failure.message,
            });
          }),
        ),
      );
    }
    void Effect.runPromiseExitWith(services)(program, { signal: controller.signal }).then((exit) => {
      // Interrupted by a skip or a stop, the machine has already moved on; anything else is fatal.
      if (controller.signal.aborted) return;
      if (Exit.isSuccess(exit)) sendBack({ type: 'ROUND_DONE' });
      else deps.onFatal?.(Cause.squash(exit.cause));
    });
    return () => controller.abort();
  };
}
