import type {
  Citation,
  DebateCost,
  DebateDomain,
  DebateEvent,
  DebateMode,
  DebateStatus,
  FundingSource,
  TurnPosition,
  Verdict,
} from '@verdict/contracts';
import type { KeyRouting } from '@verdict/core';

/** The attempt a node runs and the lease epoch it claimed: every write of the node names both. */
export type Lease = { debateId: string; attempt: number; epoch: number };

/** What the engine reads of a debate to run it. */
export type DebateToRun = {
  id: string;
  attempt: number;
  status: DebateStatus;
  /** Whose debate it is: the account whose calibration curves its verdict is read against. */
  owner_id: string;
  question: string;
  context: string | null;
  mode: DebateMode;
  requested_agents: number;
  requested_rounds: number;
  preset: string | null;
  routing: KeyRouting | null;
  funding_source: FundingSource;
  /** Stop once the positions converge this far; null: every round. */
  early_stop_threshold: number | null;
  /** A comparison's options, which its agents rank; null for any other debate. */
  compare_options: string[] | null;
  /** Runs with the evidence engine (decided at creation by the paying plan). */
  evidence_engine: boolean;
};

/** One finished agent turn as stored: its text and what it cost. */
export type StoredTurn = {
  round: number;
  agent: string;
  content: string;
  model: string;
  targetAgent: string | null;
  /** What the turn stated it stands for (its POSITION line); null when it stated nothing readable. */
  position: TurnPosition | null;
  /** Its citations as checked when stored (evidence engine on); null without the evidence engine. */
  citations: Citation[] | null;
  inputTokens: number;
  outputTokens: number;
  /** At list price, in whole nanodollars; null for a turn stored before costs were recorded. */
  costNanoUsd: number | null;
};

/** A call of an attempt that is not a turn (the judge's, the classifier's), stored with its final state. */
export type StoredCall = {
  kind: 'judge' | 'classifier';
  model: string;
  inputTokens: number;
  outputTokens: number;
  costNanoUsd: number;
};

/** How an attempt ended, as the final state stores it. */
export type DebateOutcome =
  | {
      status: 'completed';
      verdict: Verdict;
      cost: DebateCost;
      /** The judge's and classifier's calls the cost counts (debate_calls). */
      calls?: readonly StoredCall[];
      agentCount: number;
      roundCount: number;
      agentsUsed: string[];
      /** Its subject area, classified when it completed. */
      domain: DebateDomain;
    }
  | { status: 'failed'; code: string; message: string; cost: DebateCost; calls?: readonly StoredCall[] };

/**
 * What one write of the durable log stores, in one statement: its events, the actor's state after them
 * (packed), and the row's status when one of the events sets it (node/event-effects.ts).
 */
export type LogBatch = {
  events: readonly DebateEvent[];
  state: { packed: string; lastSeq: number } | null;
  status: 'running' | 'paused' | null;
};
