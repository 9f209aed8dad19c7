import type { LogLevel } from '../services.ts';
import type { Lease } from '../store/records.ts';

/** How the handling of one job ended: what the node found or what became of the debate it ran. */
export type JobEnding =
  /**
   * The final state was stored (`stored`), or another holder had stored it first; `published` false when the
   * bus refused its events after they were stored.
   */
  | {
      readonly _tag: 'Completed';
      readonly status: 'completed' | 'failed';
      readonly stored: boolean;
      readonly published: boolean;
    }
  /** Finished (its stored events published again), deleted, or the job names an older attempt: nothing to run. */
  | { readonly _tag: 'Gone' }
  /** A finished debate whose stored events could not be published again. */
  | { readonly _tag: 'Unpublished'; readonly cause: unknown }
  /** Another node holds a live lease, running out in `remainingMs` unless renewed. */
  | { readonly _tag: 'HeldElsewhere'; readonly remainingMs: number }
  /** Another copy of a job this node is already handling. */
  | { readonly _tag: 'DuplicateOnThisNode' }
  /** Storage did not answer the claim. */
  | { readonly _tag: 'Unclaimable'; readonly cause: unknown }
  /** The debate is being deleted: its actor was stopped for good. */
  | { readonly _tag: 'Cancelled'; readonly lease: Lease }
  /** Another node claimed it (with a job of its own, which carries it on), or it was deleted. */
  | { readonly _tag: 'LeaseLost' }
  /** This node is stopping: the debate goes back to the queue from its last stored step. */
  | { readonly _tag: 'Stopping'; readonly lease: Lease }
  /** Storage or the bus failed past the tolerance, or the actor broke: tried again later. */
  | { readonly _tag: 'Interrupted'; readonly lease: Lease; readonly cause: unknown }
  /** Interrupted too often: a defect or a corrupt state, not a blip. */
  | {
      readonly _tag: 'Exhausted';
      readonly lease: Lease;
      readonly interruptions: number;
      readonly cause: unknown;
    };

/**
 * What the node does with the job: done for good, back to the queue after a delay, failed for good first, or
 * left alone (`leave`): the debate's new holder may be running this very message, redelivered to it, and an
 * ack of any delivery removes the message from the queue (JetStream does not check which delivery acks).
 * Left alone, the message stays the holder's while it heartbeats, and comes back after its ack wait if not.
 */
export type JobDisposal = {
  /** Give the lease up first, so the next holder need not wait for it to expire. */
  readonly release?: boolean;
  readonly job: 'ack' | 'failAndAck' | 'leave' | { readonly retryAfterMs: number };
  readonly log?: readonly [LogLevel, string];
};

type Situation = { readonly redelivered: boolean; readonly leaseMs: number };

/** A job that met storage trouble comes back after this long. */
export const RETRY_AFTER_TROUBLE_MS = 2000;

/**
 * The one table from how a job ended to what happens to it. Adding an ending fails type-checking here until
 * someone decides.
 */
export const JOB_ENDINGS: {
  readonly [T in JobEnding['_tag']]: (
    ending: Extract<JobEnding, { _tag: T }>,
    situation: Situation,
  ) => JobDisposal;
} = {
  Completed: ({ status, stored, published }) =>
    stored && !published
      ? // Its job comes back and finds it finished: the events are published then (job/claim.ts, `publishedAgain`).
        {
          job: { retryAfterMs: RETRY_AFTER_TROUBLE_MS },
          log: ['warn', `${status}; its last events not published, job returned to the queue`],
        }
      : stored
        ? { job: 'ack', log: ['info', status] }
        : // Another node took the debate over (perhaps through this job) or it was deleted (the job comes back
          // and finds it gone).
          { job: 'leave', log: ['warn', 'lease lost before its final state was stored'] },
  Gone: () => ({ job: 'ack' }),
  Unpublished: () => ({
    job: { retryAfterMs: RETRY_AFTER_TROUBLE_MS },
    log: ['warn', 'finished; its stored events not published again, job returned to the queue'],
  }),
  // The holder's own job, back because its heartbeats stopped: look again once its lease runs out. Any
  // other copy is dropped: if the holder dies, its own job (or the reconciler) brings the debate back.
  HeldElsewhere: ({ remainingMs }, { redelivered }) =>
    redelivered ? { job: { retryAfterMs: remainingMs + 250 } } : { job: 'ack' },
  // Claiming again would start a second actor. The copy comes back a lease period later, when this node
  // may have finished (the copy is then dropped) or handed the debate over (it is the job that carries it on).
  DuplicateOnThisNode: (_, { leaseMs }) => ({ job: { retryAfterMs: leaseMs } }),
  Unclaimable: () => ({
    job: { retryAfterMs: RETRY_AFTER_TROUBLE_MS },
    log: ['warn', 'storage unavailable; job returned to the queue'],
  }),
  // Should the delete not happen, the released debate is free for the reconciler to resume.
  Cancelled: () => ({ release: true, job: 'ack', log: ['info', 'cancelled'] }),
  // The new holder may have claimed it through this job's redelivery: acking would take the job from under it,
  // and a holder that then released the debate would leave it with no job at all (only the reconciler's).
  LeaseLost: () => ({ job: 'leave', log: ['warn', 'lease lost; leaving it and its job to its new holder'] }),
  // Everything up to the last step is stored: whichever node takes the job next restores it from there.
  Stopping: () => ({
    release: true,
    job: { retryAfterMs: 0 },
    log: ['info', 'handed back to the queue: this node is stopping'],
  }),
  Interrupted: () => ({
    release: true,
    job: { retryAfterMs: RETRY_AFTER_TROUBLE_MS },
    log: ['error', 'interrupted; job returned to the queue'],
  }),
  Exhausted: ({ interruptions }) => ({
    job: 'failAndAck',
    log: ['error', `failed: interrupted ${interruptions} times`],
  }),
};

export const disposalOf = (ending: JobEnding, situation: Situation): JobDisposal =>
  (JOB_ENDINGS[ending._tag] as (ending: JobEnding, situation: Situation) => JobDisposal)(ending, situation);
