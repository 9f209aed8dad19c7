import type {
  ConvergencePoint,
  DebateEventBody,
  DebateMode,
  StoppedEarly,
  Verdict,
} from '@verdict/contracts';
import { assign, fromCallback, fromPromise, setup } from 'xstate';
import { convergenceOf } from './convergence.ts';
import type { Seat } from './panel.ts';
import type { DebateBrief, Turn } from './prompts.ts';

export type DebateInput = DebateBrief & {
  debateId: string;
  mode: DebateMode;
  seats: Seat[];
  rounds: number;
  /**
   * Stop before the last round once a round's convergence reaches `threshold` (stopWhenConverged); null or
   * absent (a snapshot stored before early stop existed): every round is spoken.
   */
  earlyStop?: { threshold: number } | null;
};

export type DebateContext = DebateInput & {
  /** The round being spoken, 1-based; 0 before the first. */
  round: number;
  turns: Turn[];
  /** Agents that failed at least one turn for good; the verdict names them. */
  missing: string[];
  /** Injected content waiting for the next round, and the content the current round received. */
  queued: string[];
  roundInjected: string[];
  pauseRequested: boolean;
  skipped: boolean;
  /** The convergence measured after each round (absent from snapshots stored before it was measured). */
  convergence?: ConvergencePoint[];
  /** Set when the positions converged before the last round and the rest was skipped. */
  stoppedEarly?: StoppedEarly | null;
  verdict: Verdict | null;
  failure: { code: 'PROVIDER_ERROR' | 'PROVIDER_TIMEOUT' | 'INTERNAL_ERROR'; message: string } | null;
};

/** Commands a caller may send, plus what the round actor reports back. */
export type DebateMachineEvent =
  | { type: 'START' }
  | { type: 'PAUSE' }
  | { type: 'RESUME' }
  | { type: 'SKIP' }
  | { type: 'INJECT'; content: string }
  | { type: 'TURN_DONE'; turn: Turn }
  | { type: 'TURN_FAILED'; agent: string; round: number; reason: string }
  | { type: 'ROUND_DONE' };

export type RoundInput = {
  round: number;
  seats: Seat[];
  previous: Turn[];
  injected: string[];
  brief: DebateBrief;
};
export type JudgeInput = { brief: DebateBrief; seats: Seat[]; turns: Turn[]; missing: string[] };
export type FailureCode = NonNullable<DebateContext['failure']>['code'];

/** Why a debate failed, with the stable code the API reports. */
export class DebateFailure extends Error {
  override name = 'DebateFailure';
  readonly code: FailureCode;
  constructor(code: FailureCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

type RoundReport = Extract<DebateMachineEvent, { type: 'TURN_DONE' | 'TURN_FAILED' | 'ROUND_DONE' }>;

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
const emitConvergence = {
  type: 'emit',
  params: ({ context }: { context: DebateContext }) => convergedEvent(context),
} as const;

const unimplemented = (what: string) => () => {
  throw new Error(`${what} must be provided with machine.provide()`);
};

/**
 * The life of one debate. I/O lives in two provided actors — `runRound` (all agents of a round in
 * parallel, reporting each turn as it lands) and `judge` — and in the provided `emit` action, so this
 * definition stays a pure, serialisable chart.
 */
export const debateMachine = setup({
  types: {
    context: {} as DebateContext,
    events: {} as DebateMachineEvent,
    input: {} as DebateInput,
  },
  actors: {
    runRound: fromCallback<RoundReport, RoundInput>(unimplemented('runRound')),
    judge: fromPromise<Verdict, JudgeInput>(unimplemented('judge')),
  },
  actions: {
    emit: (_, _event: DebateEventBody) => {},
    /** Records the round's convergence (once per round: a restored round may report ROUND_DONE again). */
    measureConvergence: assign(({ context }) => ({
      convergence: [
        ...(context.convergence ?? []).filter((point) => point.round !== context.round),
        { round: context.round, score: roundConvergence(context) },
      ],
    })),
    stopEarly: assign(({ context }) => ({
      stoppedEarly: {
        afterRound: context.round,
        plannedRounds: context.rounds,
        convergence: roundConvergence(context),
        threshold: context.earlyStop?.threshold ?? 1,
      },
    })),
    nextRound: assign(({ context }) => ({
      round: context.round + 1,
      roundInjected: context.queued,
      queued: [],
      pauseRequested: false,
    })),
  },
  guards: {
    isLastRound: ({ context }) => context.round >= context.rounds,
    converged: ({ context }) => convergedEnough(context),
    pauseRequested: ({ context }) => context.pauseRequested,
    nothingSaid: ({ context }) => context.turns.length === 0,
    newTurn: ({ context, event }) =>
      event.type === 'TURN_DONE' &&
      !context.turns.some((t) => t.agent === event.turn.agent && t.round === event.turn.round),
  },
}).createMachine({
  id: 'debate',
  initial: 'pending',
  context: ({ input }) => ({
    ...input,
    round: 0,
    turns: [],
    missing: [],
    queued: [],
    roundInjected: [],
    pauseRequested: false,
    skipped: false,
    convergence: [],
    stoppedEarly: null,
    verdict: null,
    failure: null,
  }),
  states: {
    pending: {
      on: {
        START: {
          target: 'running',
          actions: [
            {
              type: 'emit',
              params: ({ context }) => ({
                type: 'debate.started',
                data: {
                  debateId: context.debateId,
                  mode: context.mode,
                  rounds: context.rounds,
                  panel: context.seats.map(({ name, role, model }) => ({ name, role, model })),
                },
              }),
            },
            'nextRound',
          ],
        },
      },
    },
    running: {
      initial: 'speaking',
      on: {
        INJECT: {
          actions: [
            assign({ queued: ({ context, event }) => [...context.queued, event.content] }),
            {
              type: 'emit',
              params: ({ context, event }) => ({
                type: 'content.injected',
                data: { content: event.content, forRound: context.round + 1 },
              }),
            },
          ],
        },
      },
      states: {
        speaking: {
          entry: {
            type: 'emit',
            params: ({ context }) => ({
              type: 'round.started',
              data: { round: context.round, injected: context.roundInjected },
            }),
          },
          invoke: {
            src: 'runRound',
            input: ({ context }) => ({
              round: context.round,
              seats: context.seats,
              previous: context.turns.filter((t) => t.round === context.round - 1),
              injected: context.roundInjected,
              brief: {
                question: context.question,
                context: context.context,
                options: context.options ?? null,
              },
            }),
          },
          on: {
            // A restored round reports turns stored before the crash again; each counts once.
            TURN_DONE: {
              guard: 'newTurn',
              actions: assign({ turns: ({ context, event }) => [...context.turns, event.turn] }),
            },
            TURN_FAILED: {
              actions: assign({
                missing: ({ context, event }) =>
                  context.missing.includes(event.agent) ? context.missing : [...context.missing, event.agent],
              }),
            },
            PAUSE: { actions: assign({ pauseRequested: true }) },
            // Skip does not wait: leaving the state stops the round actor, which aborts in-flight calls.
            SKIP: { target: '#debate.judging', actions: assign({ skipped: true }) },
            ROUND_DONE: [
              {
                guard: 'nothingSaid',
                target: '#debate.failed',
                actions: assign({
                  failure: { code: 'PROVIDER_ERROR', message: 'Every debater failed; no argument to judge' },
                }),
              },
              // Every other way out of a round measures its convergence and says so first.
              {
                guard: 'isLastRound',
                target: '#debate.judging',
                actions: ['measureConvergence', emitConvergence],
              },
              // Early stop: the remaining rounds are skipped and the judge reads what was said.
              {
                guard: 'converged',
                target: '#debate.judging',
                actions: ['measureConvergence', 'stopEarly', emitConvergence],
              },
              { guard: 'pauseRequested', target: 'paused', actions: ['measureConvergence', emitConvergence] },
              {
                target: 'speaking',
                reenter: true,
                actions: ['measureConvergence', emitConvergence, 'nextRound'],
              },
            ],
          },
        },
        // Reached only after the in-flight responses of the round completed (the spec's pause semantics).
        paused: {
          entry: {
            type: 'emit',
            params: ({ context }) => ({ type: 'debate.paused', data: { afterRound: context.round } }),
          },
          on: {
            RESUME: {
              target: 'speaking',
              actions: [{ type: 'emit', params: { type: 'debate.resumed', data: {} } }, 'nextRound'],
            },
            SKIP: { target: '#debate.judging', actions: assign({ skipped: true }) },
          },
        },
      },
    },
    judging: {
      entry: {
        type: 'emit',
        params: ({ context }) => ({ type: 'synthesis.started', data: { skipped: context.skipped } }),
      },
      invoke: {
        src: 'judge',
        input: ({ context }) => ({
          brief: { question: context.question, context: context.context, options: context.options ?? null },
          seats: context.seats,
          turns: context.turns,
          missing: context.missing,
        }),
        onDone: {
          target: 'completed',
          // The verdict carries what the engine measured, not the judge: the per-round convergence and why
          // the debate stopped early.
          actions: assign({
            verdict: ({ context, event }) => ({
              ...event.output,
              convergence: context.convergence ?? [],
              ...(context.stoppedEarly ? { stoppedEarly: context.stoppedEarly } : {}),
            }),
          }),
        },
        onError: {
          target: 'failed',
          actions: assign({
            failure: ({ event }) => {
              const error = event.error;
              return error instanceof DebateFailure
                ? { code: error.code, message: error.message }
                : { code: 'INTERNAL_ERROR' as const, message: 'The judge step failed unexpectedly' };
            },
          }),
        },
      },
    },
    completed: {
      type: 'final',
      entry: [
        {
          type: 'emit',
          params: ({ context }) => {
            const v = context.verdict as Verdict;
            return {
              type: 'verdict',
              data: {
                recommendation: v.recommendation,
                oneLiner: v.oneLiner,
                confidence: v.confidence,
                ...(v.calibratedConfidence !== undefined && v.calibration
                  ? { calibratedConfidence: v.calibratedConfidence, calibration: v.calibration }
                  : {}),
                reasoning: v.narrative,
              },
            };
          },
        },
        {
          type: 'emit',
          params: ({ context }) => ({
            type: 'debate.completed',
            data: { debateId: context.debateId, status: 'completed' as const },
          }),
        },
      ],
    },
    failed: {
      type: 'final',
      entry: {
        type: 'emit',
        params: ({ context }) => ({
          type: 'debate.failed',
          data: {
            debateId: context.debateId,
            error: context.failure?.message ?? 'failed',
            code: context.failure?.code ?? 'INTERNAL_ERROR',
          },
        }),
      },
    },
  },
});
