import { type Consumer, type JetStreamClient, type JsMsg, jetstream } from '@nats-io/jetstream';
import { headers, type MsgHdrs, type NatsConnection, type Status } from '@nats-io/transport-node';
import { decode, encode } from './nats-codec.ts';
import { oneWritePerTurn } from './one-write-per-turn.ts';
import type { JobHandle, JobQueue } from './ports.ts';
import { publishThroughReconnects } from './publish-through-reconnects.ts';
import { currentTraceCarrier, jobTraceOf, type TraceCarrier } from './trace-carrier.ts';
import { type TroubleReport, troubleStreak } from './trouble-streak.ts';

function headersOf(carrier: TraceCarrier): MsgHdrs {
  const hdrs = headers();
  for (const [key, value] of Object.entries(carrier)) hdrs.set(key, value);
  return hdrs;
}

function carrierOf(hdrs: MsgHdrs | undefined): TraceCarrier | undefined {
  if (!hdrs) return undefined;
  return Object.fromEntries(hdrs.keys().map((key) => [key.toLowerCase(), hdrs.get(key)]));
}

/** A pulled message as the job its handler runs: acked, retried or kept alive through the message. */
function jobHandleOf(message: JsMsg): JobHandle {
  return {
    job: decode(message.data),
    redelivered: message.redelivered,
    // The stream's time of the publish: a redelivery keeps it.
    enqueuedAt: message.time.getTime(),
    trace: jobTraceOf(carrierOf(message.headers)),
    heartbeat: () => message.working(),
    ack: async () => {
      await message.ackAck();
    },
    retry: (delayMs) => message.nak(delayMs),
  };
}

/** How long a job slot waits for its consumer's info before trying again. */
const CONSUMER_LOOKUP_TIMEOUT_MS = 1000;

/** Jobs on a JetStream work-queue stream, pulled by one durable consumer that every engine node shares. */
export function natsJobQueue(
  nc: NatsConnection,
  js: JetStreamClient,
  stream: string,
  subject: string,
  onTrouble: TroubleReport,
): JobQueue {
  const publishSoon = oneWritePerTurn();
  return {
    enqueue: async (job, copy) => {
      // One job per debate attempt: a duplicate enqueue inside the dedupe window is dropped.
      const msgID = `job:${job.debateId}:${job.attempt}${copy ? `:${copy}` : ''}`;
      const carrier = currentTraceCarrier();
      const options = { msgID, ...(carrier ? { headers: headersOf(carrier) } : {}) };
      await publishSoon(() => publishThroughReconnects(js, subject, encode(job), options));
    },
    waiting: async () => {
      // Getting the consumer fetches its info: the cached copy is current, no second round trip.
      const consumer = await js.consumers.get(stream, 'engine');
      return (await consumer.info(true)).num_pending;
    },
    consume: (slots, handle) => {
      // A slot's look-up of its consumer, made while the connection is down, is sent on reconnecting but its
      // answer never comes: with the API's usual 5 s timeout, every slot sat out 5 s after a NATS restart. A
      // look-up takes milliseconds; the slot tries again after half a second.
      const lookups = jetstream(nc, { timeout: CONSUMER_LOOKUP_TIMEOUT_MS });
      let stopped = false;
      /** Each slot's current pull: ended to make the slot pull afresh. */
      const pulling = new Set<() => void>();
      // One streak for all slots: they fail together when NATS is away.
      const pulls = troubleStreak(onTrouble, 'job pulls failing; each slot pulls again every 500 ms');
      const pull = async () => {
        const consumer: Consumer = await lookups.consumers.get(stream, 'engine');
        pulls.recovered();
        // One message in flight per slot: a busy node does not hoard jobs other nodes could run. The iterator
        // sends its next pull request only when the loop asks for the next message, that is once the handler
        // has returned, so a busy slot holds no job it has not started (tested in the bus contract).
        const messages = await consumer.consume({ max_messages: 1 });
        const end = () => void messages.stop();
        pulling.add(end);
        try {
          for await (const message of messages) {
            if (stopped) {
              message.nak();
              break;
            }
            await handle(jobHandleOf(message));
          }
        } finally {
          pulling.delete(end);
        }
      };
      // A slot outlives NATS restarts: when its pull ends or fails, it starts pulling again (so a failed pull
      // needs no handling beyond the pause below and a log line per streak; the job it may have held comes
      // back after its ack wait).
      const slot = async () => {
        while (!stopped) {
          await pull().catch(pulls.failed);
          if (!stopped) await new Promise((resolve) => setTimeout(resolve, 500));
        }
      };
      const resumeAfterReconnects = pullAfreshOnReconnect(nc, pulling);
      const resumeAfterElections = pullAfreshOnNewLeader(nc, stream, pulling);
      const running = Array.from({ length: slots }, () => slot());
      return {
        stop: async () => {
          stopped = true;
          resumeAfterReconnects.stop();
          resumeAfterElections.unsubscribe();
          for (const end of pulling) end();
          await Promise.allSettled(running);
        },
      };
    },
  };
}

/**
 * Ends every slot's pull each time the connection comes back, so each slot pulls afresh within a second.
 * nats.js's own recovery checks the consumer on reconnecting and, if that check fails (JetStream still
 * recovering its store after a restart), waits 15–45 s before pulling again: seen in the chaos runs as most
 * engine slots idle for seconds after a NATS restart. A slot handling a job finishes it first (its message
 * answers through its own reply subject, not the pull).
 */
function pullAfreshOnReconnect(nc: NatsConnection, pulling: Set<() => void>) {
  // Typed as an AsyncIterable, it is nats.js's queued iterator, which stops (as its own consumers stop theirs).
  const statuses = nc.status() as AsyncIterable<Status> & { stop: () => void };
  void (async () => {
    for await (const status of statuses) {
      if (status.type === 'reconnect') for (const end of pulling) end();
    }
  })();
  return { stop: () => statuses.stop() };
}

/**
 * Ends every slot's pull when JetStream elects a new leader for the jobs' consumer (a NATS cluster lost the
 * server that led it, or cut it off): the pull requests waiting at the old leader are gone with it, and
 * nats.js, still connected to its own server, would notice only when they expire (30 s), its slots idle
 * until then (seen as 40 s without progress when the cluster's meta leader was killed).
 */
function pullAfreshOnNewLeader(nc: NatsConnection, stream: string, pulling: Set<() => void>) {
  return nc.subscribe(`$JS.EVENT.ADVISORY.CONSUMER.LEADER_ELECTED.${stream}.engine`, {
    callback: () => {
      for (const end of pulling) end();
    },
  });
}
