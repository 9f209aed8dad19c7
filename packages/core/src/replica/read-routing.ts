import { sql } from 'kysely';
import { sqlStateOf } from '../db/sql-state.ts';
import { AppError } from '../shared/app-error.ts';
import { withTimeout } from '../shared/with-timeout.ts';
import { parseLsn } from './lsn.ts';
import { type ReadDatabase, type ReplicaConnection, rowsOf } from './open-replica.ts';
import { replicaLag } from './replica-lag.ts';
import { noteWritePosition, positionsFor, primaryPosition } from './write-positions.ts';

/** A replay position this fresh is used as it is; older, the replica is asked again. */
const REPLAY_FRESH_MS = 10;
/** How long a replica that failed is read around before it is asked again. */
const RETRY_DOWN_MS = 1_000;
/** A replica slower than this to say its replay position is taken for down. */
const PROBE_TIMEOUT_MS = 500;

/** Why a read went where it went: the label of verdict_replica_reads_total. */
export type ReadReason =
  | 'replica' // served by the replica
  | 'no_replica' // none configured
  | 'caller_write' // the caller's last write (or this process's start) is not replayed yet
  | 'lagging' // the replica is further behind than DATABASE_REPLICA_MAX_LAG_MS
  | 'down' // the replica did not answer lately
  | 'replica_failed'; // the read failed on the replica and the primary answered it

/**
 * Where the read-heavy routes read: `read(userId, fn)` runs `fn` on the replica when that shows everything
 * the caller wrote and is not too far behind, else on the primary. `noteWrite(userId)` is called after each
 * of a caller's writes (the API's mutations) commits.
 */
export type ReadRouting = {
  /** `atLeast`: a WAL position the replica must have replayed too (a write of this process's own). */
  read: <T>(userId: string, read: (db: ReadDatabase) => Promise<T>, atLeast?: bigint | null) => Promise<T>;
  noteWrite: (userId: string) => Promise<void>;
  /** The primary's WAL position now, for an `atLeast` of a later read; null when no replica is read. */
  positionNow: () => Promise<bigint | null>;
  /** Reads so far by reason (for the metrics). */
  tallies: () => ReadonlyMap<ReadReason, number>;
  close: () => Promise<void>;
};

/** No replica: every read on the primary, and no write position to keep. */
export function primaryOnly(primary: ReadDatabase): ReadRouting {
  const tallies = new Map<ReadReason, number>();
  return {
    read: (_userId, read) => {
      tallies.set('no_replica', (tallies.get('no_replica') ?? 0) + 1);
      return read(primary);
    },
    noteWrite: async () => {},
    positionNow: async () => null,
    tallies: () => tallies,
    close: async () => {},
  };
}

export type ReplicaRoutingOptions = {
  primary: ReadDatabase;
  replica: ReplicaConnection;
  maxLagMs: number;
  now: () => number;
  /** Told when the replica stops answering, and when it answers again. */
  report: (message: string, cause?: unknown) => void;
};

/**
 * Reads on a streaming replica with read-your-writes. Per read: one round trip to the primary (its WAL
 * position and the caller's last write position, one indexed row) at the same time as the replica's replay
 * position, which is asked at most every 10 ms per process; then the read itself, on the replica or the
 * primary. The process's own start is a floor: the replica must have replayed the migrations it ran.
 */
export async function replicaRouting(options: ReplicaRoutingOptions): Promise<ReadRouting> {
  const { primary, replica, maxLagMs, now } = options;
  const floor = await primaryPosition(primary);
  const lag = replicaLag();
  const replay = replayTracker(options);
  const tallies = new Map<ReadReason, number>();
  const count = (reason: ReadReason) => tallies.set(reason, (tallies.get(reason) ?? 0) + 1);

  const route = async (userId: string, atLeast: bigint | null): Promise<ReadReason> => {
    const [positions, seen] = await Promise.all([positionsFor(primary, userId), replay.position()]);
    lag.samplePrimary(now(), positions.primary);
    const needed = [positions.caller, atLeast].reduce<bigint>((a, b) => (b !== null && b > a ? b : a), floor);
    let replayed = seen?.lsn ?? null;
    // A recent writer may be replayed by now even though the cached position says not: ask once more.
    if (replayed !== null && replayed < needed && seen?.cached)
      replayed = (await replay.refresh())?.lsn ?? null;
    if (replayed === null) return 'down';
    if (replayed < needed) return 'caller_write';
    if (lag.behindMs(now(), replayed) > maxLagMs) return 'lagging';
    return 'replica';
  };

  return {
    read: async (userId, read, atLeast = null) => {
      const reason = await route(userId, atLeast);
      if (reason !== 'replica') {
        count(reason);
        return read(primary);
      }
      try {
        const result = await read(replica);
        count('replica');
        return result;
      } catch (error) {
        if (!isReplicaTrouble(error)) throw error;
        replay.failed(error);
        count('replica_failed');
        return read(primary);
      }
    },
    noteWrite: (userId) => noteWritePosition(primary, userId),
    positionNow: () => primaryPosition(primary),
    tallies: () => tallies,
    close: () => replica.close(),
  };
}

/**
 * Whether a read failed for the replica's sake, so that the primary should answer it: the connection (lost,
 * refused, timed out, or SQLSTATE class 08), the server going away or starting (57P01–57P03), too many
 * connections (53300), a query cancelled for a conflict with recovery (40001), a schema not replayed yet
 * (42P01, 3F000). Anything else (a statement timeout of the caller's, the driver's query timeout, an error of
 * the query or of the code around it) is the read's own: run twice, a slow read would cost twice.
 */
export function isReplicaTrouble(error: unknown): boolean {
  if (error instanceof AppError) return false;
  // A SQLSTATE, not a network error's code (ECONNRESET, EPIPE): no class of SQLSTATE begins with an E.
  const state = sqlStateOf(error, (code) => /^[0-9A-DF-Z][0-9A-Z]{4}$/.test(code));
  if (state !== null) return /^(08|57P0[123]|53300|40001|42P01|3F000)/.test(state);
  return isConnectionFailure(error);
}

const CONNECTION_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/** node-postgres's words for a connection lost or never made (it gives them no code). */
const CONNECTION_WORDS =
  /Connection terminated|connection error|Connection timeout|timeout exceeded when trying to connect/i;

function isConnectionFailure(error: unknown): boolean {
  for (let e = error; e instanceof Error; e = e.cause) {
    const { code } = e as { code?: unknown };
    if ((typeof code === 'string' && CONNECTION_CODES.has(code)) || CONNECTION_WORDS.test(e.message))
      return true;
  }
  return false;
}

/** The replica's replay position, cached for REPLAY_FRESH_MS, one probe at a time; null while down. */
function replayTracker({ replica, now, report }: ReplicaRoutingOptions) {
  let last: { lsn: bigint; at: number } | null = null;
  let downSince: number | null = null;
  let probing: Promise<{ lsn: bigint } | null> | null = null;

  const markDown = (cause: unknown) => {
    if (downSince === null) report('read replica not answering: reads go to the primary', cause);
    downSince = now();
    last = null;
  };

  const probe = async () => {
    try {
      const [row] = await withTimeout(
        rowsOf(replica, sql<{ replay: string | null }>`select pg_last_wal_replay_lsn()::text as replay`),
        PROBE_TIMEOUT_MS,
        'read replica probe',
      );
      // No replay position: the server is not in recovery (promoted), and its data may part from the primary's.
      const lsn = parseLsn(row?.replay);
      if (lsn === null) throw new Error('the read replica is no longer a standby');
      if (downSince !== null) report('read replica answering again: reads go to it');
      downSince = null;
      last = { lsn, at: now() };
      return { lsn };
    } catch (error) {
      markDown(error);
      return null;
    }
  };

  const refresh = () => {
    probing ??= probe().finally(() => {
      probing = null;
    });
    return probing;
  };

  return {
    refresh,
    failed: markDown,
    /** The replay position, `cached` when it was not asked for this read; null while the replica is down. */
    position: async (): Promise<{ lsn: bigint; cached: boolean } | null> => {
      const t = now();
      if (downSince !== null && t - downSince < RETRY_DOWN_MS) return null;
      if (last && t - last.at <= REPLAY_FRESH_MS) return { lsn: last.lsn, cached: true };
      const fresh = await refresh();
      return fresh && { lsn: fresh.lsn, cached: false };
    },
  };
}
