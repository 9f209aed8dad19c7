import type { DebateEvent, Notification } from '@verdict/contracts';
import type { JobTrace } from './trace-carrier.ts';

/**
 * Ports between API processes and engine nodes. Embedded mode runs them in memory; distributed mode on
 * NATS JetStream. Both adapters pass the same contract tests (bus/bus-contract.ts).
 */

/** Debate events: published once each (duplicates by message id are dropped), replayable from the first. */
export type EventBus = {
  publish: (event: DebateEvent) => Promise<void>;
  /**
   * Delivers the debate's events of `attempt` with seq > `afterSeq` in order, then live ones, until the
   * returned function is called. Each event once: one that comes again (a subscription made anew) is not
   * delivered again. A follow that cannot go on (the bus could not resume it) calls `onLost` once and
   * delivers nothing more: its follower must read what it may have missed elsewhere, or end.
   */
  follow: (
    debateId: string,
    attempt: number,
    afterSeq: number,
    onEvent: (event: DebateEvent) => void,
    onLost?: (error: unknown) => void,
  ) => Promise<() => void>;
  /**
   * The seq of the debate's last event the bus holds, if it is of `attempt`; 0 when it holds none of it. Events
   * are published in order, so every event a node stored after it may still be unpublished.
   */
  lastSeq: (debateId: string, attempt: number) => Promise<number>;
};

export type DebateJob = { debateId: string; attempt: number };

export type JobHandle = {
  job: DebateJob;
  /** Delivered before and not acked in time: its node died or stalled, or it was handed back. */
  redelivered: boolean;
  /** When the job was queued (ms since the epoch), as the queue recorded it: the start of its wait. */
  enqueuedAt?: number;
  /** The trace of the request that queued the job (its context travels with the job): empty when off. */
  trace: JobTrace;
  /** Tells the queue the job is still being worked on, so it is not redelivered. */
  heartbeat: () => void;
  /** Done for good; call only after the final state is stored. */
  ack: () => Promise<void>;
  /** Give the job back for another node (or this one) to retry after `delayMs`. */
  retry: (delayMs: number) => void;
};

export type JobConsumer = { stop: () => Promise<void> };

/** Debates waiting for an engine node. Each job goes to one consumer; unacked jobs come back. */
export type JobQueue = {
  /**
   * Queues a job. Within the queue's dedupe window a second enqueue of the same debate attempt is dropped;
   * `copy` names a deliberate extra copy (the reconciler's), which is not. The active trace context goes
   * with it (trace-carrier.ts), so the engine's spans continue the trace that queued it.
   */
  enqueue: (job: DebateJob, copy?: string) => Promise<void>;
  consume: (slots: number, handle: (job: JobHandle) => Promise<void>) => JobConsumer;
  /** Jobs queued that no node has taken yet: the backlog. */
  waiting: () => Promise<number>;
};

export type DebateCommand =
  | { type: 'pause' }
  | { type: 'resume' }
  | { type: 'skip' }
  | { type: 'inject'; payload: { content: string } }
  /** Not a caller's command: asks the node for the actor's current state and transition history. */
  | { type: 'inspect' }
  /** Not a caller's command: stops the debate for good (it is being deleted); the job is not retried. */
  | { type: 'cancel' };

/**
 * One state the debate's actor entered: when, the event that moved it there, and the engine node that ran it
 * then (absent in histories stored before nodes were recorded), so a chart can show where a node took over.
 */
export type TransitionRecord = { at: string; event: string; state: string; node?: string };

export type CommandReply = {
  accepted: boolean;
  /** The actor's state after the command, as a dotted path ("running.paused"). */
  state: string;
  message?: string;
  /** Only for `inspect`. */
  history?: TransitionRecord[];
};

/** How long a command waits for its answer unless the caller says otherwise; silence counts as no engine. */
export const COMMAND_TIMEOUT_MS = 5000;

/** Commands travel to whichever node holds the debate; 'no_engine' means none does. */
export type CommandBus = {
  send: (debateId: string, command: DebateCommand, timeoutMs?: number) => Promise<CommandReply | 'no_engine'>;
  /**
   * The handler replies once the command's effect is stored, so an accepted command survives a crash; it
   * answers 'no_engine' when it gave the debate up before running it.
   */
  serve: (
    debateId: string,
    handler: (command: DebateCommand) => Promise<CommandReply | 'no_engine'>,
  ) => Promise<() => void>;
};

export type Bus = {
  events: EventBus;
  jobs: JobQueue;
  commands: CommandBus;
  keys: KeyCourier;
  notifications: NotificationChannel;
  /** Resolves when the bus answers a round trip within the timeout (readiness); in-process, at once. */
  ping: (timeoutMs: number) => Promise<void>;
  close: () => Promise<void>;
};

/**
 * Hands a BYOK debate's provider keys from the API process that received them to the engine node that
 * runs it, over plain request/reply: nothing is stored, so a restart loses them (and the debate fails
 * with a clear message rather than running on the service's keys).
 */
export type KeyCourier = {
  hold: (debateId: string, keys: Record<string, string>) => Promise<() => void>;
  fetch: (debateId: string) => Promise<Record<string, string> | null>;
};

/**
 * Live notifications of one user, from whichever process created them (an API process, an engine node) to
 * whichever holds that user's notification streams. Fire and forget, no history: the stored notification
 * is the record, this is only the live path (the spec's stream replays nothing).
 */
export type NotificationChannel = {
  publish: (userId: string, notification: Notification) => Promise<void>;
  /** Delivers the user's notifications published from now on, until the returned function is called. */
  subscribe: (userId: string, onNotification: (notification: Notification) => void) => Promise<() => void>;
};
