import type { DebateJob } from '@verdict/core';
import { PRESENCE_LOCK_CLASS, prepared } from '@verdict/core';
import { type Kysely, sql } from 'kysely';
import type { StoreTables } from './store-statements.ts';

/**
 * The presence locks held now (core's db/presence.ts), this database's only: the lock ids of the nodes alive,
 * by the hash of their names, and whether this node's own is among them.
 */
const presentLocks = sql`from pg_locks l
  where l.locktype = 'advisory' and l.granted and l.objsubid = 2
    and l.database = (select oid from pg_database where datname = current_database())
    and l.classid = ${PRESENCE_LOCK_CLASS}`;

/**
 * The lease's holder is alive: its presence lock is held. A node that died lost it with its session, so its
 * debates are taken over at once (the claim, the presence watch), not when their leases run out.
 */
export const holderPresent = sql<boolean>`exists (select 1 ${presentLocks}
    and l.objid = hashtext(debates.lease_owner)::oid)`;

/** Who is present now: the nodes' lock ids, and whether `nodeId` is one of them. */
export type PresentHolders = { holders: ReadonlySet<number>; self: boolean };

export async function presentHolders(k: Kysely<StoreTables>, nodeId: string): Promise<PresentHolders> {
  const { rows } = await prepared(
    'present_holders',
    sql<{ holder: string; self: boolean }>`select l.objid::int8 as holder,
      l.objid = hashtext(${nodeId})::oid as self ${presentLocks}`,
  ).execute(k);
  return { holders: new Set(rows.map((row) => Number(row.holder))), self: rows.some((row) => row.self) };
}

/** A debate whose holder is gone, with the epoch of the lease it died with. */
export type Orphan = DebateJob & { epoch: number };

/**
 * Unfinished debates leased by one of `gone` (lock ids) whose presence is still gone now: read without a
 * lock, since only a claim takes them (and checks again).
 */
export async function orphansOf(k: Kysely<StoreTables>, gone: readonly number[]): Promise<Orphan[]> {
  const { rows } = await sql<{
    id: string;
    attempt: number;
    lease_epoch: number;
  }>`select id, attempt, lease_epoch
      from debates
     where status in ('pending', 'running', 'paused') and lease_expires_at is not null
       and hashtext(lease_owner)::oid = any(${`{${gone.join(',')}}`}::oid[])
       and not ${holderPresent}`.execute(k);
  return rows.map((row) => ({ debateId: row.id, attempt: row.attempt, epoch: row.lease_epoch }));
}
