/** At most one sample of the primary's position per this many milliseconds. */
const SAMPLE_EVERY_MS = 50;
/** Samples kept at most (a minute and more at one per 50 ms); past it the newest is overwritten. */
const MAX_SAMPLES = 1_500;

/**
 * How far behind the primary a replica is, in time, measured by WAL position rather than by either server's
 * clock: the primary's position is sampled as reads ask for it; the replica is as far behind as the oldest
 * sample it has not replayed. An idle primary writes nothing new, so an idle replica is 0 behind (which
 * `now() - pg_last_xact_replay_timestamp()` on the standby gets wrong); a replica cut off from its primary
 * replays nothing while the primary moves on, so its lag grows (which receive = replay on the standby misses).
 */
export function replicaLag() {
  const samples: { at: number; lsn: bigint }[] = [];
  return {
    /** The primary was at `lsn` at `at` (ms). */
    samplePrimary(at: number, lsn: bigint) {
      const last = samples.at(-1);
      if (last && (lsn <= last.lsn || at - last.at < SAMPLE_EVERY_MS)) return;
      if (samples.length >= MAX_SAMPLES) samples.pop();
      samples.push({ at, lsn });
    },
    /** Milliseconds since the primary first stood past `replayed` (0: nothing sampled is unreplayed). */
    behindMs(now: number, replayed: bigint): number {
      while (samples.length > 0 && (samples[0]?.lsn ?? 0n) <= replayed) samples.shift();
      const oldest = samples[0];
      return oldest ? Math.max(0, now - oldest.at) : 0;
    },
  };
}
