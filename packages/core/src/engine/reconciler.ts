import type { JobQueue } from '../bus/ports.ts';
import type { Database } from '../db/orm.ts';

export type ReconcilerOptions = {
  /** How long a debate may sit unclaimed, or with its lease expired, before it is queued again. */
  staleAfterMs: number;
  intervalMs: number;
  /** Debates re-queued per pass at most; the next pass takes the rest. */
  batch?: number;
  log?: (message: string, details?: Record<string, unknown>) => void;
};

/**
 * Debates unfinished but run by nobody: never claimed (the job publish failed, or the queue lost it), or
 * held by a lease that ran out long ago (the node died and its job did not come back). Claimed with
 * `skip locked` and stamped, so several nodes running this at once re-queue each debate once per period;
 * a surplus copy is harmless anyway, since running a debate needs its lease.
 *
 * Unclaimed debates get their own, longer period while the queue has a backlog: then they are most likely
 * waiting their turn in it, and a copy every period would only grow the queue.
 */
const STALE_DEBATES = `update debates set requeued_at = now() where id in (
    select id from debates
     where status in ('pending', 'running', 'paused')
       and (requeued_at is null or requeued_at < now() - make_interval(secs => ?))
       and (
         (lease_expires_at is null and coalesce(started_at, created_at) < now() - make_interval(secs => ?))
         or lease_expires_at < now() - make_interval(secs => ?)
       )
     order by created_at limit ?
     for update skip locked)
  returning id, attempt`;

/** A stamp taken back for debates whose re-queue did not happen, so the next pass tries them again. */
const UNSTAMP = 'update debates set requeued_at = null where id = any(?::uuid[])';

/** How much longer an unclaimed debate waits for its job while the queue has a backlog. */
const BACKLOG_PATIENCE = 10;

/** Every debate not held by `nodeId`: at the start of the only node there is (embedded mode). */
const FOREIGN_DEBATES = `update debates set requeued_at = now(), lease_owner = null, lease_expires_at = null
   where status in ('pending', 'running', 'paused') and lease_owner is distinct from ?
   returning id, attempt`;

export type Reconciler = ReturnType<typeof createReconciler>;

export function createReconciler(db: Database, jobs: JobQueue, options: ReconcilerOptions) {
  const stale = options.staleAfterMs / 1000;
  let timer: NodeJS.Timeout | null = null;
  let pass: Promise<unknown> = Promise.resolve();

  const requeue = async (rows: { id: string; attempt: number }[]) => {
    const copy = `requeue-${Date.now()}`;
    for (const [index, row] of rows.entries()) {
      try {
        await jobs.enqueue({ debateId: row.id, attempt: Number(row.attempt) }, copy);
      } catch (error) {
        const missed = rows.slice(index).map((r) => r.id);
        await db.execute(UNSTAMP, [`{${missed.join(',')}}`]).catch(() => {});
        throw error;
      }
    }
    if (rows.length > 0) options.log?.(`re-queued ${rows.length} debate(s) nobody was running`);
    return rows.length;
  };

  const runOnce = async (): Promise<number> => {
    const unclaimedStale = (await jobs.waiting()) > 0 ? stale * BACKLOG_PATIENCE : stale;
    return requeue(
      await db.execute<{ id: string; attempt: number }>(STALE_DEBATES, [
        stale,
        unclaimedStale,
        stale,
        options.batch ?? 500,
      ]),
    );
  };

  return {
    runOnce,
    /** Takes over everything another process left behind; only for a node that is alone by design. */
    takeOverAll: async (nodeId: string) => requeue(await db.execute(FOREIGN_DEBATES, [nodeId])),
    start: () => {
      if (timer) return;
      // Jitter keeps many nodes from scanning in lockstep.
      const tick = () => {
        timer = setTimeout(
          () => {
            pass = runOnce()
              .catch((err) => options.log?.('reconciler pass failed', { err }))
              .finally(() => timer && tick());
          },
          options.intervalMs * (0.75 + Math.random() * 0.5),
        );
        timer.unref();
      };
      tick();
    },
    stop: async () => {
      if (timer) clearTimeout(timer);
      timer = null;
      await pass;
    },
  };
}
