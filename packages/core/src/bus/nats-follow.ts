import {
  AckPolicy,
  type ConsumerMessages,
  DeliverPolicy,
  type JetStreamClient,
  type JetStreamManager,
} from '@nats-io/jetstream';
import { type NatsConnection, nanos, nuid } from '@nats-io/transport-node';

/** A consumer left behind (its follow's process gone) is removed by the server after this long unused. */
const INACTIVE_MS = 5 * 60_000;

export type SubjectFollowOptions = {
  /** How often the server says an idle consumer is alive; two missed and the consumer is made anew. */
  heartbeatMs: number;
  /** How long making the consumer anew may keep failing before the follow ends for good (`onLost`). */
  giveUpMs: number;
};

/** Notifications that say the consumer will deliver nothing more as it is. */
const STALLED = new Set(['heartbeats_missed', 'consumer_deleted', 'consumer_not_found', 'stream_not_found']);

/** The wait before the n-th consecutive attempt to make the consumer anew. */
const retryDelayMs = (attempt: number) => (attempt === 0 ? 0 : Math.min(250 * 2 ** (attempt - 1), 2000));

/**
 * Every message of `subject` in `stream` once, in stream order, until the returned stop, through the
 * client's moves between servers and the stream's leader changes.
 *
 * Why not nats.js's ordered consumer alone: its consumer is one copy on one server. When that server goes,
 * or the client moves to another, nats.js checks the consumer with waits of `expires` (30 s) between tries
 * and keeps its heartbeat check off until a check succeeds; a check that keeps failing left a followed
 * debate silent for good (two streams in the cluster chaos run stopped mid-debate). So this follow makes
 * a new ordered consumer from the stream sequence after the last one delivered whenever the client
 * reconnects, the consumer reports itself stalled (heartbeats missed, deleted, not found) or its messages
 * end; and when making one keeps failing for `giveUpMs` it says so (`onLost`) rather than wait silently.
 */
export function followSubject(
  nc: NatsConnection,
  js: JetStreamClient,
  jsm: JetStreamManager,
  at: { stream: string; subject: string },
  onMessage: (data: Uint8Array) => void,
  onLost: (error: unknown) => void,
  options: SubjectFollowOptions,
): { started: Promise<void>; stop: () => void } {
  const cursor = { lastStreamSeq: 0 };
  let current: { messages: ConsumerMessages; name: string } | null = null;
  let generation = 0;
  let failures = 0;
  let failingSince: number | null = null;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  const run = async (mine: number) => {
    let messages: ConsumerMessages;
    let opened: { name: string };
    try {
      [messages, opened] = await openConsumer(js, jsm, at, cursor.lastStreamSeq, options.heartbeatMs);
    } catch (error) {
      if (mine === generation) restart(error, true);
      throw error;
    }
    if (mine !== generation) return void messages.stop();
    current = { messages, name: opened.name };
    failures = 0;
    failingSince = null;
    void watchStalls(messages, at.subject, () => mine === generation, restart);
    void deliverAll(messages, cursor, onMessage).then(
      () => mine === generation && restart(new Error(`the consumer of ${at.subject} ended`)),
      (error: unknown) => mine === generation && restart(error),
    );
  };

  /** Stops the current consumer's messages and removes it (best effort: unused, the server removes it later). */
  function leave() {
    if (!current) return;
    current.messages.stop();
    jsm.consumers.delete(at.stream, current.name).catch(() => {});
    current = null;
  }

  function restart(reason: unknown, failed = false) {
    if (stopped) return;
    generation += 1;
    leave();
    clearTimeout(timer);
    if (failed) failingSince ??= Date.now();
    if (failingSince !== null && Date.now() - failingSince >= options.giveUpMs) {
      stop();
      return onLost(reason);
    }
    const mine = generation;
    timer = setTimeout(() => void run(mine).catch(() => {}), retryDelayMs(failures));
    failures += 1;
  }

  const reconnects = onReconnect(nc, restart);

  function stop() {
    stopped = true;
    generation += 1;
    clearTimeout(timer);
    leave();
    reconnects.stop();
  }

  // The first consumer is made before the follow is said to be started; its failure is the caller's.
  const started = run(generation).catch((error: unknown) => {
    stop();
    throw error;
  });
  return { started, stop };
}

/**
 * A consumer as nats.js's ordered consumer makes it (one copy, in memory, no acks, gone when unused), made
 * directly: nats.js's own making asks for the stream's info first, which goes unanswered while the stream
 * elects a new leader, and the consumer can be made before that.
 */
async function openConsumer(
  js: JetStreamClient,
  jsm: JetStreamManager,
  at: { stream: string; subject: string },
  afterStreamSeq: number,
  heartbeatMs: number,
): Promise<[ConsumerMessages, { name: string }]> {
  const name = `follow_${nuid.next()}`;
  await jsm.consumers.add(at.stream, {
    name,
    // A single subject goes as `filter_subject`, which NATS 2.9 understands (arrays need 2.10).
    filter_subject: at.subject,
    ...(afterStreamSeq === 0
      ? { deliver_policy: DeliverPolicy.All }
      : { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: afterStreamSeq + 1 }),
    ack_policy: AckPolicy.None,
    mem_storage: true,
    num_replicas: 1,
    inactive_threshold: nanos(INACTIVE_MS),
  });
  const consumer = await js.consumers.get(at.stream, name);
  return [await consumer.consume({ idle_heartbeat: heartbeatMs, expires: 30_000 }), { name }];
}

/** Hands on each message past the cursor (a consumer made anew may repeat what was delivered). */
async function deliverAll(
  messages: ConsumerMessages,
  cursor: { lastStreamSeq: number },
  onMessage: (data: Uint8Array) => void,
) {
  for await (const message of messages) {
    if (message.seq <= cursor.lastStreamSeq) continue;
    cursor.lastStreamSeq = message.seq;
    onMessage(message.data);
  }
}

/** Calls `restart` when the consumer says it will deliver nothing more, while it is the current one. */
async function watchStalls(
  messages: ConsumerMessages,
  subject: string,
  isCurrent: () => boolean,
  restart: (reason: unknown) => void,
) {
  for await (const status of messages.status()) {
    if (!isCurrent()) return;
    if (STALLED.has(status.type)) return restart(new Error(`consumer of ${subject}: ${status.type}`));
  }
}

/** Calls `onReconnected` each time the client reconnects, until the returned iterator is stopped. */
function onReconnect(nc: NatsConnection, onReconnected: (reason: unknown) => void) {
  // nats.js's status iterator is a QueuedIterator: stopping it takes it off the connection's listeners.
  const statuses = nc.status() as AsyncIterable<{ type: string }> & { stop: () => void };
  void (async () => {
    for await (const status of statuses) if (status.type === 'reconnect') onReconnected(status);
  })();
  return statuses;
}
