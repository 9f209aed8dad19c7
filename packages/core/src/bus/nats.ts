import { type JetStreamClient, type JetStreamManager, jetstream, jetstreamManager } from '@nats-io/jetstream';
import {
  connect,
  type NatsConnection,
  NoRespondersError,
  RequestError,
  TimeoutError,
} from '@nats-io/transport-node';
import { type DebateEvent, type Notification, subjects } from '@verdict/contracts';
import { withTimeout } from '../shared/with-timeout.ts';
import { decode, encode } from './nats-codec.ts';
import { followSubject, type SubjectFollowOptions } from './nats-follow.ts';
import { natsJobQueue } from './nats-job-queue.ts';
import { ensureJobConsumer, ensureStreams } from './nats-streams.ts';
import {
  type Bus,
  COMMAND_TIMEOUT_MS,
  type CommandBus,
  type CommandReply,
  type DebateCommand,
  type EventBus,
  type KeyCourier,
  type NotificationChannel,
} from './ports.ts';
import { publishThroughReconnects } from './publish-through-reconnects.ts';
import { leaveStrandedServer } from './stranded-server.ts';
import { type TroubleReport, troubleStreak } from './trouble-streak.ts';

export type NatsBusOptions = {
  servers: string[];
  /** Prepended to every subject and stream name; tests use one each to stay apart. */
  prefix?: string;
  /** How long a delivered job may go without ack or heartbeat before JetStream redelivers it. */
  jobAckWaitMs?: number;
  /** How long events stay replayable in JetStream (PostgreSQL keeps them for good). */
  eventMaxAgeMs?: number;
  name?: string;
  /**
   * Told of trouble the bus rides out on its own but must not hide: job pulls failing, subscription errors.
   * Once per streak (trouble-streak.ts), not once per retry.
   */
  onTrouble?: TroubleReport;
  /**
   * How often the client pings the server; three pings unanswered and it drops the connection and reconnects.
   * Default 20 s. nats.js's own (2 min, two pings) left a connection that went silent (its server's host gone
   * without a reset, a partition, a middlebox forgetting it) unnoticed for 4–6 minutes, pulling no job.
   */
  pingIntervalMs?: number;
  /**
   * Copies JetStream keeps of each stream and of the job consumer (NATS_STREAM_REPLICAS). More than one needs
   * a NATS cluster of at least as many servers: the start is refused otherwise. Unset: streams are made with
   * one copy, and existing streams keep the count they have.
   */
  streamReplicas?: number | undefined;
  /**
   * How often the server tells a follow of a debate's events (an idle ordered consumer) that it is alive;
   * two missed and the follow makes its consumer anew from the next stream sequence. Default 2 s.
   */
  followHeartbeatMs?: number;
  /** How long a follow may fail to make its consumer anew before it ends for good (its onLost); default 60 s. */
  followGiveUpMs?: number;
};

/** How long one request of a follow (the stream's info, making its consumer) waits for JetStream's answer. */
const FOLLOW_REQUEST_MS = 1500;

/** A silent connection is dropped after this many pings go unanswered. */
const MAX_PINGS_OUT = 3;

/** The bus on NATS JetStream: a work-queue stream for jobs, a limits stream for events, core NATS for commands. */
export type NatsBus = Bus & {
  connection: NatsConnection;
  /** Removes this prefix's streams; for tests, which each create their own. */
  deleteStreams: () => Promise<void>;
};

export async function natsBus(options: NatsBusOptions): Promise<NatsBus> {
  const prefix = options.prefix ?? '';
  const streamPrefix = prefix.replace(/[^A-Za-z0-9_-]/g, '_').toUpperCase();
  const names = {
    events: `${streamPrefix}DEBATE_EVENTS`,
    jobs: `${streamPrefix}DEBATE_JOBS`,
    jobsSubject: `${prefix}${subjects.jobs}`,
    eventsSubject: (id: string) => `${prefix}${subjects.events(id)}`,
    commandSubject: (id: string) => `${prefix}${subjects.command(id)}`,
    keysSubject: (id: string) => `${prefix}debate.${id}.keys`,
    notificationSubject: (userId: string) => `${prefix}${subjects.notifications(userId)}`,
  };
  const nc = await connect({
    servers: options.servers,
    name: options.name ?? 'verdict',
    reconnect: true,
    maxReconnectAttempts: -1,
    // A restarted server is back within a second or so: the client's 2 s between tries (its default) held
    // every node's pulls and publishes back for seconds after it was up (the chaos runs' NATS restarts).
    reconnectTimeWait: 500,
    pingInterval: options.pingIntervalMs ?? 20_000,
    maxPingOut: MAX_PINGS_OUT,
    // Without it every request (each JetStream publish is one) builds a RequestError and a TimeoutError with
    // stack traces up front, in case it fails: a third of a publish's client CPU (77 → 45 µs a publish,
    // BENCHMARKS.md "The engine, lean"). A failure still comes as the same error classes, with the stack of
    // where it was raised rather than of the caller.
    noAsyncTraces: true,
  });
  const jsm = await jetstreamManager(nc);
  try {
    await ensureStreams(nc, jsm, {
      events: names.events,
      eventsSubject: `${prefix}debate.*.events`,
      jobs: names.jobs,
      jobsSubject: names.jobsSubject,
      eventMaxAgeMs: options.eventMaxAgeMs ?? 24 * 3_600_000,
      replicas: options.streamReplicas,
    });
  } catch (error) {
    // A refused start must not leave the connection reconnecting behind the refusal.
    await nc.close();
    throw error;
  }
  await ensureJobConsumer(jsm, names.jobs, options.jobAckWaitMs ?? 6000);
  const js = jetstream(nc);
  const onTrouble = options.onTrouble ?? (() => {});
  const stranded = leaveStrandedServer(nc, options.servers.length, onTrouble);
  return {
    connection: nc,
    events: natsEventBus(nc, js, jsm, names.events, names.eventsSubject, {
      heartbeatMs: options.followHeartbeatMs ?? 2000,
      giveUpMs: options.followGiveUpMs ?? 60_000,
    }),
    jobs: natsJobQueue(nc, js, names.jobs, names.jobsSubject, onTrouble),
    commands: natsCommandBus(nc, names.commandSubject, onTrouble),
    keys: natsKeyCourier(nc, names.keysSubject, onTrouble),
    notifications: natsNotificationChannel(nc, names.notificationSubject, onTrouble),
    // A PING answered by the server; while the client is reconnecting it waits, and the timeout says no.
    ping: (timeoutMs) => withTimeout(nc.flush(), timeoutMs, 'NATS ping'),
    deleteStreams: async () => {
      await jsm.streams.delete(names.events);
      await jsm.streams.delete(names.jobs);
    },
    close: async () => {
      stranded.stop();
      await nc.drain();
    },
  };
}

function natsEventBus(
  nc: NatsConnection,
  js: JetStreamClient,
  jsm: JetStreamManager,
  stream: string,
  subject: (id: string) => string,
  followOptions: SubjectFollowOptions,
): EventBus {
  // A follow's requests (the stream's info, making its consumer) wait less than a publish: one unanswered
  // while the stream elects a leader is tried again soon, rather than after nats.js's 5 s.
  const followJs = jetstream(nc, { timeout: FOLLOW_REQUEST_MS });
  const followJsm = followJs.jetstreamManager(false);
  return {
    publish: async (event) => {
      // The message id makes a re-published event (a retried write, a restarted node) a no-op.
      await publishThroughReconnects(js, subject(event.debateId), encode(event), {
        msgID: `${event.debateId}:${event.attempt}:${event.seq}`,
      });
    },
    follow: async (debateId, attempt, afterSeq, onEvent, onLost = () => {}) => {
      let lastDelivered = afterSeq;
      const follow = followSubject(
        nc,
        followJs,
        await followJsm,
        { stream, subject: subject(debateId) },
        (data) => {
          const event = decode<DebateEvent>(data);
          if (event.attempt !== attempt || event.seq <= lastDelivered) return;
          lastDelivered = event.seq;
          onEvent(event);
        },
        onLost,
        followOptions,
      );
      await follow.started;
      return follow.stop;
    },
    lastSeq: async (debateId, attempt) => {
      // One request: the stream's last message on the debate's subject (null when it has none).
      const last = await jsm.streams.getMessage(stream, { last_by_subj: subject(debateId) });
      const event = last ? decode<DebateEvent>(last.data) : null;
      return event?.attempt === attempt ? event.seq : 0;
    },
  };
}

/** A trace carrier as NATS message headers, and back: the job's trace context crosses the hop in them. */
function natsCommandBus(
  nc: NatsConnection,
  subject: (id: string) => string,
  onTrouble: TroubleReport,
): CommandBus {
  return {
    send: async (debateId, command, timeoutMs = COMMAND_TIMEOUT_MS) => {
      try {
        const reply = await nc.request(subject(debateId), encode(command), { timeout: timeoutMs });
        return decode<CommandReply | 'no_engine'>(reply.data);
      } catch (err) {
        // No subscriber answers in ~1 ms; a silent one is as good as none for the caller.
        if (err instanceof NoRespondersError || err instanceof TimeoutError) return 'no_engine';
        if (err instanceof RequestError && err.isNoResponders()) return 'no_engine';
        throw err;
      }
    },
    serve: async (debateId, handler) => {
      const trouble = troubleStreak(onTrouble, `debate ${debateId}: command subscription failing`);
      const subscription = nc.subscribe(subject(debateId), {
        callback: (err, message) => {
          if (err) return trouble.failed(err);
          trouble.recovered();
          void handler(decode<DebateCommand>(message.data)).then(
            (reply) => message.respond(encode(reply)),
            // A handler that throws is a node defect: the caller hears that no engine runs it; nothing crashes.
            () => message.respond(encode('no_engine')),
          );
        },
      });
      await nc.flush(); // the subscription is live at the server before anyone is told to send
      return () => subscription.unsubscribe();
    },
  };
}

/** Core NATS request/reply only: the keys never touch JetStream or any other disk-backed store. */
function natsKeyCourier(
  nc: NatsConnection,
  subject: (id: string) => string,
  onTrouble: TroubleReport,
): KeyCourier {
  return {
    hold: async (debateId, keys) => {
      const trouble = troubleStreak(onTrouble, `debate ${debateId}: key subscription failing`);
      const subscription = nc.subscribe(subject(debateId), {
        callback: (err, message) => {
          if (err) return trouble.failed(err);
          trouble.recovered();
          message.respond(encode(keys));
        },
      });
      await nc.flush();
      return () => subscription.unsubscribe();
    },
    fetch: async (debateId) => {
      try {
        return decode<Record<string, string>>(
          (await nc.request(subject(debateId), undefined, { timeout: 2000 })).data,
        );
      } catch (err) {
        if (err instanceof NoRespondersError || err instanceof TimeoutError) return null;
        if (err instanceof RequestError && err.isNoResponders()) return null;
        throw err;
      }
    },
  };
}

/**
 * Core NATS, a subject per user: only processes holding that user's streams have interest, so a
 * notification travels to them alone, and nothing is kept (no replay, as the spec says).
 */
function natsNotificationChannel(
  nc: NatsConnection,
  subject: (userId: string) => string,
  onTrouble: TroubleReport,
): NotificationChannel {
  return {
    publish: async (userId, notification) => {
      nc.publish(subject(userId), encode(notification));
    },
    subscribe: async (userId, onNotification) => {
      const trouble = troubleStreak(onTrouble, `user ${userId}: notification subscription failing`);
      const subscription = nc.subscribe(subject(userId), {
        callback: (err, message) => {
          if (err) return trouble.failed(err);
          trouble.recovered();
          onNotification(decode<Notification>(message.data));
        },
      });
      await nc.flush(); // live at the server before the stream says it is connected
      return () => subscription.unsubscribe();
    },
  };
}
