import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Bus, Database, Embedder } from '@verdict/core';
import { Context } from 'effect';
import type { CallPolicy } from './runner/llm-call.ts';
import type { StorageRetryPolicy } from './store/retry.ts';

/**
 * The services the engine runs on, each a Context service provided by a Layer built once in the process's
 * composition root (layers.ts): storage, the bus, the settings (time is Effect's Clock, over the node's: clock.ts); the log is Effect's logger (logging.ts). The LLM providers are a
 * service of their own (providers/provider-choice.ts), and so are the engine store's parts (store/lease-store.ts,
 * attempt-log.ts, attempt-outcome.ts).
 */

/** The database the engine store works on: the service's own. */
export class EngineStorage extends Context.Service<EngineStorage, { readonly db: Database }>()(
  '@verdict/engine/EngineStorage',
) {}

/** The job queue, event stream, command channel and key courier between API processes and engine nodes. */
export class EngineBus extends Context.Service<EngineBus, Bus>()('@verdict/engine/EngineBus') {}

// Where the engine says what it does is Effect's logger, installed by the node's layer (logging.ts).
export type { LogFn, LogLevel } from './logging.ts';

/**
 * Moments inside a node that no outcome shows, announced so a test can wait for the path it means to test
 * instead of sleeping and hoping; production nodes watch none.
 */
export type ProbeMoment =
  /** A command reached a claimed debate whose actor has not started yet: it waits for the actor. */
  | { readonly _tag: 'CommandAwaitingActor'; readonly debateId: string }
  /** The node stopped pulling and told its jobs it is stopping. */
  | { readonly _tag: 'NodeStopping' }
  /** A webhook fan-out pass ended: the outbox rows it took and the deliveries it queued (then it woke senders). */
  | { readonly _tag: 'WebhookFannedOut'; readonly taken: number; readonly queued: number }
  /** The webhook senders were woken (by the fan-out or the scout), or all put to sleep by a lane with nothing to send. */
  | { readonly _tag: 'WebhookSendersWoken' }
  | { readonly _tag: 'WebhookSendersAsleep' }
  /** The presence watch looked: the holders it found gone since its last look, and the debates it queued. */
  | { readonly _tag: 'PresenceLooked'; readonly gone: number; readonly queued: number };

export class EngineProbe extends Context.Service<
  EngineProbe,
  { readonly notice: (moment: ProbeMoment) => void }
>()('@verdict/engine/EngineProbe') {}

export type EngineSettingsShape = {
  /** How this node signs its leases: host, pid and a random suffix. */
  readonly nodeId: string;
  /** Debates this node runs at once. */
  readonly slots: number;
  /** A node's lease on a debate: how long a stalled node keeps it. Renewed every `heartbeatMs`. */
  readonly leaseMs: number;
  /** How often the node renews its leases; well under the lease. */
  readonly heartbeatMs: number;
  /** How often a running job tells the queue it is alive; well under the queue's ack wait. */
  readonly jobHeartbeatMs: number;
  /** How long storage and bus writes retry through an outage before the debate is handed back. */
  readonly storage: StorageRetryPolicy;
  /**
   * Interruptions (other than a node stopping or losing its lease) after which a debate fails INTERNAL_ERROR
   * instead of going back to the queue again: a debate that breaks every time must not cycle forever.
   */
  readonly maxInterruptions: number;
  readonly reconcile: { readonly intervalMs: number; readonly staleAfterMs: number };
  /** How often the node looks at the other nodes' presence, to queue a dead node's debates again at once. */
  readonly presenceWatchMs: number;
  /** The score worker's period. */
  readonly scoreIntervalMs: number;
  /** The only node there is (embedded mode): at start it takes over whatever an earlier process left. */
  readonly exclusive: boolean;
  /** Timeout and retries of one LLM call. */
  readonly policy: CallPolicy;
  /**
   * The node's embedding model, when a provider key embeds: the evidence engine's retrieval then ranks
   * passages by vector as well as by full text. Absent or null: full text alone.
   */
  readonly embedder?: Embedder | null;
};

export class EngineSettings extends Context.Service<EngineSettings, EngineSettingsShape>()(
  '@verdict/engine/EngineSettings',
) {}

/** How a node signs its leases: host, pid and a random suffix. */
export const newNodeId = () => `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
