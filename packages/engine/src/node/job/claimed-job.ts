import type { JobHandle } from '@verdict/core';
import { Context, Data, Deferred, Effect } from 'effect';
import type { SnapshotFrom } from 'xstate';
import type { debateMachine } from '../../machine/machine.ts';
import type { RunningDebate } from '../../runner/run-debate.ts';
import { zeroCost } from '../../runner/usage.ts';
import type { BusUnavailable, LeaseLost, PermanentFailure, StorageUnavailable } from '../../store/errors.ts';
import type { DebateOutcome, DebateToRun, Lease } from '../../store/records.ts';
import type { DurableLog, LogFailure } from '../durable-log.ts';
import type { HeldLease } from '../lease-keeper.ts';
import type { Stalled } from '../stall-guard.ts';

/** What the jobs of one running node share: which debates it handles, which actors run, whether it stops. */
export class NodeJobs extends Context.Service<
  NodeJobs,
  {
    /** Debates whose job this node is handling, from the first look until the job is acked or given back. */
    readonly handling: Set<string>;
    /** Actors running on this node, by debate id. */
    readonly active: Map<string, RunningDebate>;
    /** Done when the node is stopping: jobs hand their debates back instead of starting or finishing them. */
    readonly stopping: Deferred.Deferred<void>;
    /** Jobs whose actor runs: each is stopped (`Stopping`) when the node stops. */
    readonly running: Set<ClaimedJob>;
  }
>()('@verdict/engine/NodeJobs') {}

/** The node is stopping: the debate goes back to the queue from its last stored step. */
export class Stopping extends Data.TaggedError('Stopping') {}

/** The actor failed or was stopped before reaching a final state. */
export class ActorStopped extends Data.TaggedError('ActorStopped')<{ readonly cause: unknown }> {}

/** Why a claimed job stopped short of storing a final state. */
export type JobStop =
  | LogFailure
  | StorageUnavailable
  | PermanentFailure
  | BusUnavailable
  | LeaseLost
  | Stopping
  | ActorStopped
  | Stalled;

/** What the phases of one claimed job share. */
export type ClaimedJob = {
  readonly handle: JobHandle;
  readonly debate: DebateToRun;
  readonly lease: Lease;
  /** No node started this attempt before this claim: there is nothing stored of it to restore. */
  readonly fresh: boolean;
  /** The lease as its keeper holds it: the provider waits on it (`confirmed`) before each call. */
  readonly held: HeldLease;
  /**
   * How the actor's run ends, once: its final snapshot, or the first reason the job cannot go on (its lease
   * gone, its log failed, its actor's round broke or stalled, the node stopping). Everything that can end a
   * run completes this one Deferred, so a running job waits on it alone, with no fiber of its own.
   */
  readonly ended: Deferred.Deferred<FinalSnapshot, JobStop>;
  /** The actor once it runs, or null when this node gives the debate up before starting it. */
  readonly ready: Deferred.Deferred<RunningDebate | null>;
  cancelled: boolean;
  log: DurableLog | null;
  /** Snapshots the actor has taken: the stall guard's measure of progress. */
  steps: number;
};

/** The actor's snapshot in a final state. */
export type FinalSnapshot = SnapshotFrom<typeof debateMachine>;

/** Ends the job's run with `stop`, unless it has ended already. */
export const stopWith = (job: ClaimedJob, stop: JobStop) => Deferred.doneUnsafe(job.ended, Effect.fail(stop));

/** Ends the job's run with the actor's final snapshot, unless it has ended already. */
export const reachedEnd = (job: ClaimedJob, final: FinalSnapshot) =>
  Deferred.doneUnsafe(job.ended, Effect.succeed(final));

export const failedOutcome = (code: string, message: string): DebateOutcome => ({
  status: 'failed',
  code,
  message,
  cost: zeroCost(),
});
