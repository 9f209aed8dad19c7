import type { DebateEventBody, Verdict } from '@verdict/contracts';
import { assign, fromCallback, fromPromise, setup } from 'xstate';
import { debateActions, debateGuards, emitConvergence } from './machine-actions.ts';
import {
  type DebateContext,
  DebateFailure,
  type DebateInput,
  type DebateMachineEvent,
  type JudgeInput,
  type RoundInput,
  type RoundReport,
} from './machine-types.ts';

// The types, the failure and the convergence helper live next door; importers keep reaching them here.
export { roundConvergence } from './machine-actions.ts';
export {
  type DebateContext,
  DebateFailure,
  type DebateInput,
  type DebateMachineEvent,
  type FailureCode,
  type JudgeInput,
  type RoundInput,
} from './machine-types.ts';

const unimplemented = (what: string) => () => {
  throw new Error(`${what} must be provided with machine.provide()`);
};

/**
 * The life of one debate. I/O lives in two provided actors — `runRound` (all agents of a round in
 * parallel, reporting each turn as it lands) and `judge` — and in the provided `emit` action, so this
 * definition stays a pure, serialisable chart. They are provided once for the process
 * (runner/debate-actors.ts), not per debate.
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
    ...debateActions,
  },
  guards: debateGuards,
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
