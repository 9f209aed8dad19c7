import { chainOf } from '../../packages/core/src/audit/audit-chains.ts';
import { type AuditContent, auditHash, GENESIS_HASH } from '../../packages/core/src/audit/audit-hash.ts';
import { auditEntryRow } from '../../packages/core/src/audit/entry-rows.ts';
import type { AuditTables } from '../../packages/core/src/audit/tables.ts';
import { query } from '../../packages/core/src/db/kysely.ts';
import type { Database } from '../../packages/core/src/db/orm.ts';

const BATCH = 1000;

/**
 * Appends `count` entries to an account's audit chain, as many key updates by a key from one address, each
 * hashed over the one before as `recordAudit` would (so the chain still verifies): the trail an export
 * bench streams. A thousand rows a statement, each batch a transaction of its own (with the chain's head)
 * that stays well inside the transaction limit, after whatever the chain held.
 */
export async function seedAuditEntries(db: Database, accountId: string, count: number): Promise<void> {
  const chain = chainOf({ accountId });
  const started = Date.now() - count; // a millisecond apart, oldest first, all before now
  for (let done = 0; done < count; done += BATCH) {
    await db.em().transactional(async (em) => {
      const k = query<AuditTables>(em);
      const head = await k
        .selectFrom('audit_chains')
        .select(['seq', 'hash'])
        .where('chain', '=', chain)
        .forUpdate()
        .executeTakeFirst();
      let seq = Number(head?.seq ?? 0);
      let prev = head?.hash ?? GENESIS_HASH;
      const rows = [];
      for (let i = done; i < Math.min(count, done + BATCH); i++) {
        seq++;
        const content = contentOf(chain, seq, new Date(started + i).toISOString(), accountId, i);
        const hash = auditHash(prev, content);
        rows.push(auditEntryRow(content, prev, hash));
        prev = hash;
      }
      await k.insertInto('audit_entries').values(rows).execute();
      await k
        .insertInto('audit_chains')
        .values({ chain, seq, hash: prev })
        .onConflict((c) => c.column('chain').doUpdateSet({ seq, hash: prev }))
        .execute();
    });
  }
}

const contentOf = (chain: string, seq: number, at: string, accountId: string, i: number): AuditContent => ({
  chain,
  seq,
  at,
  actor: { kind: 'key', id: accountId, keyId: '00000000-0000-4000-8000-000000000001' },
  action: 'api_key.update',
  target: { type: 'api_key', id: `key-${i % 50}` },
  origin: { ip: '203.0.113.7', userAgent: 'bench/1.0 (audit export)', requestId: `req-${i}` },
  changes: {
    name: { before: `key ${i}`, after: `key ${i + 1}` },
    config: { before: { rateLimit: 60 }, after: { rateLimit: 120 } },
  },
});
