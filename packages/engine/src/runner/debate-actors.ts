import type { DebateEventBody, Verdict } from '@verdict/contracts';
import { createActor, fromCallback, fromPromise } from 'xstate';
import { debateMachine, type JudgeInput, type RoundInput } from '../machine/machine.ts';
import type { RoundReport } from '../machine/machine-types.ts';
import type { Judge } from './judge.ts';
import type { RunRound } from './round.ts';

/** What one debate's machine does outside itself: its rounds, its judge, its events. */
export type DebateWork = {
  readonly runRound: RunRound;
  readonly judge: Judge;
  readonly emit: (event: DebateEventBody) => void;
};

/** Each running debate's work, by the actor system its actor (and the actors it invokes) run in. */
const workBySystem = new WeakMap<object, DebateWork>();

const workOf = (system: object): DebateWork => {
  const work = workBySystem.get(system);
  if (!work) throw new Error('a debate actor runs outside createDebateActor');
  return work;
};

/**
 * The debate machine with its I/O, built once for the process: its actors and its `emit` find the debate's
 * own work through the actor system they run in. A machine provided per debate built its own state nodes
 * and transitions for every debate (XState builds them lazily per machine), a share of each one's heap.
 */
export const implementedMachine = debateMachine.provide({
  actors: {
    runRound: fromCallback<RoundReport, RoundInput>(({ input, sendBack, system }) =>
      workOf(system).runRound(input, sendBack),
    ),
    judge: fromPromise<Verdict, JudgeInput>(({ input, signal, system }) =>
      workOf(system).judge(input, signal),
    ),
  },
  actions: { emit: ({ system }, event) => workOf(system).emit(event) },
});

/** An actor of the debate machine doing `work`: what `createActor` makes, its work known to its system. */
export function createDebateActor(
  work: DebateWork,
  options: Parameters<typeof createActor<typeof implementedMachine>>[1],
) {
  const actor = createActor(implementedMachine, options);
  workBySystem.set(actor.system, work);
  return actor;
}
