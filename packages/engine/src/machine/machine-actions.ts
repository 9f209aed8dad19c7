import type { DebateEventBody } from '@verdict/contracts';
import { assign, type NonReducibleUnknown } from 'xstate';
import { convergenceOf } from './convergence.ts';
import type { DebateContext, DebateMachineEvent } from './machine-types.ts';

/** The convergence of the round just spoken (machine/convergence.ts): a comparison's rankings, else stances. */
export const roundConvergence = (context: DebateContext): number =>
  convergenceOf(
    context.turns.filter((turn) => turn.round === context.round).map((turn) => turn.position ?? null),
    (context.options?.length ?? 0) >= 2,
  );

/** Early stop: on, not after the last round (nothing left to skip), and this round converged far enough. */
const convergedEnough = (context: DebateContext) =>
  !!context.earlyStop &&
  context.round < context.rounds &&
  roundConvergence(context) >= context.earlyStop.threshold;

/** The `round.converged` event of the round just measured. */
const convergedEvent = (context: DebateContext): DebateEventBody => ({
  type: 'round.converged',
  data: {
    round: context.round,
    score: context.convergence?.at(-1)?.score ?? 0,
    threshold: context.earlyStop?.threshold ?? null,
    stopping: !!context.stoppedEarly,
  },
});

/** Emits the round's `round.converged` (after `measureConvergence`, and `stopEarly` when it stops). */
export const emitConvergence = {
  type: 'emit',
  params: ({ context }: { context: DebateContext }) => convergedEvent(context),
} as const;

/**
 * `assign` for the debate's context and events, typed as `setup()` types an inline one (params included),
 * so the machine's type reads the same. No actor type: these assignments spawn nothing.
 */
const assignDebate = assign<
  DebateContext,
  DebateMachineEvent,
  NonReducibleUnknown,
  DebateMachineEvent,
  never
>;

/** The machine's named context updates (`emit` is provided with the I/O, in machine.ts). */
export const debateActions = {
  /** Records the round's convergence (once per round: a restored round may report ROUND_DONE again). */
  measureConvergence: assignDebate(({ context }) => ({
    convergence: [
      ...(context.convergence ?? []).filter((point) => point.round !== context.round),
      { round: context.round, score: roundConvergence(context) },
    ],
  })),
  stopEarly: assignDebate(({ context }) => ({
    stoppedEarly: {
      afterRound: context.round,
      plannedRounds: context.rounds,
      convergence: roundConvergence(context),
      threshold: context.earlyStop?.threshold ?? 1,
    },
  })),
  nextRound: assignDebate(({ context }) => ({
    round: context.round + 1,
    roundInjected: context.queued,
    queued: [],
    pauseRequested: false,
  })),
};

type GuardArgs = { context: DebateContext; event: DebateMachineEvent };

/** The conditions the machine's transitions name. */
export const debateGuards = {
  isLastRound: ({ context }: GuardArgs) => context.round >= context.rounds,
  converged: ({ context }: GuardArgs) => convergedEnough(context),
  pauseRequested: ({ context }: GuardArgs) => context.pauseRequested,
  nothingSaid: ({ context }: GuardArgs) => context.turns.length === 0,
  newTurn: ({ context, event }: GuardArgs) =>
    event.type === 'TURN_DONE' &&
    !context.turns.some((t) => t.agent === event.turn.agent && t.round === event.turn.round),
};
