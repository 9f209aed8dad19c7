import type * as Context from 'effect/Context';
import type { EngineDeps } from './engine-deps.ts';
import type { CallPolicy } from './llm-call.ts';
import type { CallTokens } from './usage.ts';

/** What a debate's actors (round.ts, judge.ts) share with the debate that runs them (run-debate.ts). */
export type ActorShared = {
  readonly deps: EngineDeps;
  readonly policy: CallPolicy;
  /** The attempt being run: part of each message's claimId. */
  readonly attempt: number;
  /** Adds a call's tokens and cost to the debate's usage (a judge's call is listed as such). */
  readonly count: (call: CallTokens, kind?: 'judge') => void;
  /** The node's services the actors' programs run on (deps.services, or Effect's defaults). */
  readonly services: Context.Context<never>;
};
