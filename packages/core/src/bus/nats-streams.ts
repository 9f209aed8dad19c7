import {
  AckPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  type JetStreamManager,
  RetentionPolicy,
  StorageType,
} from '@nats-io/jetstream';
import { type NatsConnection, nanos } from '@nats-io/transport-node';
import { StreamReplicasUnavailable } from './nats-startup.ts';

/** JetStream's "no suitable peers for placement": fewer servers up in the cluster than the copies asked. */
const NO_PEERS_FOR_PLACEMENT = 10005;
/** JetStream's "insufficient resources": no server in the cluster has the room for another copy. */
const INSUFFICIENT_RESOURCES = 10023;

/** The bus's two streams, with the replicas asked: events (kept `eventMaxAgeMs`) and jobs (a work queue). */
export async function ensureStreams(
  nc: NatsConnection,
  jsm: JetStreamManager,
  streams: {
    events: string;
    eventsSubject: string;
    jobs: string;
    jobsSubject: string;
    eventMaxAgeMs: number;
    /** Undefined: made with one copy, an existing stream's count left as it is. */
    replicas: number | undefined;
  },
) {
  const { replicas } = streams;
  checkReplicasPossible(nc, replicas ?? 1);
  const cluster = nc.info?.cluster;
  await ensureStream(
    jsm,
    {
      name: streams.events,
      subjects: [streams.eventsSubject],
      retention: RetentionPolicy.Limits,
      max_age: nanos(streams.eventMaxAgeMs),
      num_replicas: replicas,
    },
    cluster,
  );
  await ensureStream(
    jsm,
    {
      name: streams.jobs,
      subjects: [streams.jobsSubject],
      retention: RetentionPolicy.Workqueue,
      num_replicas: replicas,
    },
    cluster,
  );
}

/**
 * Refuses a replica count a lone server cannot keep before anything is made. A server that is not part of a
 * cluster has no cluster name in its INFO; NATS itself would refuse to create such a stream, but takes an
 * update of an existing one to 3 copies without complaint and keeps one (nats-server 2.9).
 */
function checkReplicasPossible(nc: NatsConnection, replicas: number) {
  if (replicas > 1 && !nc.info?.cluster) throw new StreamReplicasUnavailable(replicas, null);
}

/**
 * The stream as configured: made when missing, else updated to the subjects, age and copies asked. NATS moves
 * an existing stream to another replica count in place (R1 → R3 copies its messages to two more servers; R3 →
 * R1 drops two), so a deployment changes NATS_STREAM_REPLICAS by restarting with it. A count the cluster
 * cannot place (fewer servers up than copies) refuses the start with the operator's line.
 */
async function ensureStream(
  jsm: JetStreamManager,
  config: {
    name: string;
    subjects: string[];
    retention: RetentionPolicy;
    max_age?: number;
    num_replicas: number | undefined;
  },
  cluster: string | undefined,
) {
  try {
    const existing = await jsm.streams.info(config.name).catch((error: unknown) => {
      if (error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamNotFound) return null;
      throw error;
    });
    if (existing) {
      await jsm.streams.update(config.name, {
        subjects: config.subjects,
        max_age: config.max_age ?? 0,
        ...(config.num_replicas !== undefined && { num_replicas: config.num_replicas }),
      });
    } else {
      await jsm.streams.add({ ...config, num_replicas: config.num_replicas ?? 1, storage: StorageType.File });
    }
  } catch (error) {
    if (error instanceof JetStreamApiError && isPlacementRefusal(error)) {
      throw new StreamReplicasUnavailable(config.num_replicas ?? 1, cluster ?? null, error.message);
    }
    throw error;
  }
}

const isPlacementRefusal = (error: JetStreamApiError) =>
  error.code === NO_PEERS_FOR_PLACEMENT || error.code === INSUFFICIENT_RESOURCES;

/**
 * The engines' shared durable consumer of the jobs stream. Its replicas are left at 0, which JetStream reads
 * as "as many as the stream": it moves with the stream when NATS_STREAM_REPLICAS changes.
 */
export async function ensureJobConsumer(jsm: JetStreamManager, stream: string, ackWaitMs: number) {
  const config = {
    ack_policy: AckPolicy.Explicit,
    ack_wait: nanos(ackWaitMs),
    max_ack_pending: -1,
    // Every idle slot of every node parks one pull request here; NATS's default of 512 would cap the whole
    // cluster at 512 debates in flight.
    max_waiting: 100_000,
  };
  try {
    await jsm.consumers.info(stream, 'engine');
    // A deployment that changes its ack wait updates the shared consumer (max_waiting cannot change).
    await jsm.consumers.update(stream, 'engine', { ack_wait: config.ack_wait });
  } catch {
    await jsm.consumers.add(stream, { durable_name: 'engine', ...config });
  }
}
