import type { ConvergencePoint, DebateMode, StoppedEarly, Verdict } from '@verdict/contracts';
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

export type RoundReport = Extract<DebateMachineEvent, { type: 'TURN_DONE' | 'TURN_FAILED' | 'ROUND_DONE' }>;
