import type { Database } from '../db/orm.ts';

/**
 * Who runs a debate is decided in PostgreSQL, not by the queue: a job only wakes a node up. A node claims
 * the debate's lease (raising its epoch), marks it running once it answers the debate's commands, renews
 * the lease with each job heartbeat, and every write it makes about the debate names the epoch it claimed —
 * so a node that stalled and lost its lease cannot write over the node that took over.
 */
export type Claim =
  | { kind: 'claimed'; epoch: number }
  /** Another node holds a live lease; it runs out in `remainingMs` unless renewed. */
  | { kind: 'held'; remainingMs: number }
  /** Finished, deleted, or the job names an older attempt: nothing to run. */
  | { kind: 'gone' };

export type Leases = ReturnType<typeof createLeases>;

export function createLeases(db: Database, nodeId: string, ttlMs: number) {
  const ttlSeconds = ttlMs / 1000;
  return {
    nodeId,
    ttlMs,

    claim: async (debateId: string, attempt: number): Promise<Claim> => {
      const [claimed] = await db.execute<{ lease_epoch: number }>(
        `update debates set lease_owner = ?, lease_epoch = lease_epoch + 1,
           lease_expires_at = now() + make_interval(secs => ?)
         where id = ? and attempt = ? and status in ('pending', 'running', 'paused')
           and (lease_expires_at is null or lease_expires_at <= now() or lease_owner = ?)
         returning lease_epoch`,
        [nodeId, ttlSeconds, debateId, attempt, nodeId],
      );
      if (claimed) return { kind: 'claimed', epoch: Number(claimed.lease_epoch) };
      // Still unfinished means held — even if the lease ran out since the update above (each statement
      // has its own now()): answering 'gone' there would drop the dead holder's job.
      const [held] = await db.execute<{ remaining_ms: number }>(
        `select coalesce(greatest(0, extract(epoch from lease_expires_at - now()) * 1000), 0)::int as remaining_ms
           from debates where id = ? and attempt = ? and status in ('pending', 'running', 'paused')`,
        [debateId, attempt],
      );
      return held ? { kind: 'held', remainingMs: Number(held.remaining_ms) } : { kind: 'gone' };
    },

    /**
     * Marks a claimed debate as running, once the node answers its commands: a caller who reads `running`
     * can pause it. False when the lease is no longer this node's.
     */
    markRunning: async (debateId: string, epoch: number): Promise<boolean> => {
      const rows = await db.execute(
        `update debates set status = case when status = 'pending' then 'running' else status end,
           started_at = coalesce(started_at, now())
         where id = ? and lease_epoch = ? and lease_owner = ? and status in ('pending', 'running', 'paused')
         returning id`,
        [debateId, epoch, nodeId],
      );
      return rows.length > 0;
    },

    /**
     * Extends every lease this node holds in one statement (a node with a thousand debates renews them with
     * one round trip per heartbeat). Returns the debates still held; the others were taken over, finished
     * or deleted.
     */
    renew: async (held: { debateId: string; epoch: number }[]): Promise<Set<string>> => {
      if (held.length === 0) return new Set();
      const rows = await db.execute<{ id: string }>(
        `update debates d set lease_expires_at = now() + make_interval(secs => ?)
           from jsonb_to_recordset(?::jsonb) as h(id uuid, epoch int)
          where d.id = h.id and d.lease_epoch = h.epoch and d.lease_owner = ?
            and d.status in ('pending', 'running', 'paused')
          returning d.id`,
        [ttlSeconds, JSON.stringify(held.map((h) => ({ id: h.debateId, epoch: h.epoch }))), nodeId],
      );
      return new Set(rows.map((row) => row.id));
    },

    /**
     * Counts one more interruption of the attempt while `epoch` holds it, and returns the count; null when
     * the lease is no longer this node's.
     */
    countInterruption: async (debateId: string, epoch: number): Promise<number | null> => {
      const [row] = await db.execute<{ interruptions: number }>(
        `update debates set interruptions = interruptions + 1
          where id = ? and lease_epoch = ? and lease_owner = ? and status in ('pending', 'running', 'paused')
          returning interruptions`,
        [debateId, epoch, nodeId],
      );
      return row ? Number(row.interruptions) : null;
    },

    /**
     * Lets another node claim at once (a node shutting down hands its debates back). Clearing the owner also
     * stops a renewal already in flight from extending the lease again.
     */
    release: async (debateId: string, epoch: number): Promise<void> => {
      await db.execute(
        `update debates set lease_owner = null, lease_expires_at = null where id = ? and lease_epoch = ?`,
        [debateId, epoch],
      );
    },
  };
}
