import type { DebateEventBody, Verdict } from '@verdict/contracts';
import type * as Context from 'effect/Context';
import type * as Effect from 'effect/Effect';
import type { AttachedText } from '../machine/prompts.ts';
import type { LlmProvider } from '../providers/port.ts';
import type { PersistedState } from '../replay/snapshot.ts';
import type { LeaseLost, PermanentFailure, StorageUnavailable } from '../store/errors.ts';
import type { StoredTurn } from '../store/records.ts';
import type { EvidencePort } from './evidence.ts';
import type { CallPolicy } from './llm-call.ts';

/**
 * What a debate's actor runs with, given by whoever starts it (the node's job, a test): its own module, so
 * the runner's parts (rounds, turns, the judge) depend on it and not on `run-debate.ts`, which depends on them.
 */
export type EngineDeps = {
  provider: LlmProvider;
  judgeModel: string;
  policy?: CallPolicy;
  /** Receives every event in order. Must not throw; durable storage and publishing live behind it. */
  emit: (event: DebateEventBody) => void;
  /** The attempt being run (1 unless the debate was retried): part of each message's claimId. */
  attempt?: number;
  /**
   * Stores a finished turn before the machine hears of it (its key is its position: see replay). A failure
   * stops the round, which reports it through onFatal.
   */
  recordTurn?: (turn: StoredTurn) => Effect.Effect<void, TurnNotStored>;
  /**
   * A failure the debate cannot go on from here (a turn not stored, a defect): the node stops the actor and
   * settles the job as the failure says.
   */
  onFatal?: (error: unknown) => void;
  /**
   * Called after every step of the actor with `current`, which makes its persisted state when called: the
   * log calls it once a write, not once a step (XState copies the whole context for it). It answers the
   * latest step, so never one older than the events already emitted. Once the actor was stopped through
   * `RunningDebate.stop`, it answers the state as of the stop: stopped, the actor's children are stopped
   * too, and a state made from them would restore a round or a judge that never runs again.
   */
  onStateChange?: (current: () => PersistedState | null) => void;
  /**
   * The text of the debate's ready attachments, read when a round's first turn starts: documents attached
   * mid-debate reach the agents from the next round (a restored debate reads them again the same way).
   */
  readAttachments?: () => Promise<AttachedText[]>;
  /**
   * The debate's corpus, when it runs with the evidence engine: each turn then carries retrieved passages
   * instead of attachment excerpts, its citations are checked, and the verdict's key evidence is built
   * from the verified ones. Absent: the evidence engine is off (the verdict says so).
   */
  evidence?: EvidencePort;
  /**
   * Adds the owner's calibrated confidence to the judge's verdict before the machine hears of it, so the
   * verdict event, the stored verdict and every read agree (node/verdict-calibration.ts: the owner's stored
   * curves, for the debate's domain). Absent: the verdict stays as the judge gave it.
   */
  calibrate?: (verdict: Verdict) => Effect.Effect<Verdict>;
  /** The engine node running this actor: recorded on each history entry, so a restore shows the hand-over. */
  nodeId?: string;
  /**
   * The node's services the actor's programs run on (its logger, clock and random): the actor runs them
   * outside any fiber of the node, from xstate's callbacks. Absent: Effect's defaults.
   */
  services?: Context.Context<never>;
};

/** Why a finished turn could not be stored: the round stops, and the job with it. */
type TurnNotStored = StorageUnavailable | PermanentFailure | LeaseLost;
