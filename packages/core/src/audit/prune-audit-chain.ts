import type { EntityManager } from '@mikro-orm/core';
import { query } from '../db/kysely.ts';
import type { Clock } from '../shared/clock.ts';
import type { AuditTables } from './tables.ts';

/**
 * Retention for one chain: removes its entries up to the last one made before `before` — always a whole
 * prefix, never one from the middle — and records a checkpoint naming that last entry's hash, from which
 * verification goes on. The database allows nothing else (migration 0038): a checkpoint must name an entry
 * older than 30 days, and only entries a checkpoint covers can be deleted. Answers how many were removed.
 */
export async function pruneAuditChain(
  em: EntityManager,
  clock: Clock,
  chain: string,
  before: Date,
): Promise<number> {
  return em.transactional(async (tx) => {
    const db = query<AuditTables>(tx);
    // The chain's head, held against appends for the moment it takes; another node pruning it now skips it.
    const head = await db
      .selectFrom('audit_chains')
      .select('chain')
      .where('chain', '=', chain)
      .forUpdate()
      .skipLocked()
      .executeTakeFirst();
    if (!head) return 0;
    const last = await db
      .selectFrom('audit_entries')
      .select(['seq', 'hash', 'at'])
      .where('chain', '=', chain)
      .where('at', '<', before.toISOString())
      .orderBy('seq', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (!last) return 0;
    const removed = await db
      .selectFrom('audit_entries')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('chain', '=', chain)
      .where('seq', '<=', last.seq)
      .executeTakeFirstOrThrow();
    await db
      .insertInto('audit_checkpoints')
      .values({
        chain,
        seq: last.seq,
        hash: last.hash,
        at: last.at,
        removed_at: new Date(clock.now()),
        removed: Number(removed.n),
      })
      .execute();
    await db.deleteFrom('audit_entries').where('chain', '=', chain).where('seq', '<=', last.seq).execute();
    return Number(removed.n);
  });
}
