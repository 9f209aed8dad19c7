import type { EntityManager } from '@mikro-orm/core';
import { query } from '../db/kysely.ts';
import { auditHash, GENESIS_HASH } from './audit-hash.ts';
import { type AuditEntryRow, contentOfRow } from './entry-rows.ts';
import type { AuditTables } from './tables.ts';

/** The first entry that does not hold, and why. */
export type BrokenEntry = { seq: number; problem: string };

export type ChainVerification = {
  chain: string;
  /** Entries checked (those since the latest retention checkpoint). */
  entries: number;
  verified: boolean;
  firstBroken: BrokenEntry | null;
  /** Where retention last cut the chain, if it did: checking starts after it. */
  checkpoint: { seq: number; at: string } | null;
};

const PAGE = 1000;

/**
 * Walks a chain from its latest checkpoint (or its start) in order: each entry must follow the one
 * before (no gap), name its hash, and hash to what it says; the chain's head must name the last. Reads a
 * page at a time, so a long chain is checked in bounded memory.
 */
export async function verifyAuditChain(em: EntityManager, chain: string): Promise<ChainVerification> {
  const db = query<AuditTables>(em);
  const checkpoint = await db
    .selectFrom('audit_checkpoints')
    .select(['seq', 'hash', 'at'])
    .where('chain', '=', chain)
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
  let expected = checkpoint ? Number(checkpoint.seq) + 1 : 1;
  let prevHash = checkpoint?.hash ?? GENESIS_HASH;
  let checked = 0;
  const result = (firstBroken: BrokenEntry | null): ChainVerification => ({
    chain,
    entries: checked,
    verified: firstBroken === null,
    firstBroken,
    checkpoint: checkpoint
      ? { seq: Number(checkpoint.seq), at: new Date(checkpoint.at).toISOString() }
      : null,
  });
  for (;;) {
    const rows = await db
      .selectFrom('audit_entries')
      .selectAll()
      .where('chain', '=', chain)
      .where('seq', '>=', expected)
      .orderBy('seq')
      .limit(PAGE)
      .execute();
    for (const row of rows) {
      const problem = problemOf(row, expected, prevHash);
      if (problem) return result({ seq: expected, problem });
      checked++;
      expected++;
      prevHash = row.hash;
    }
    if (rows.length < PAGE) break;
  }
  const head = await db
    .selectFrom('audit_chains')
    .select(['seq', 'hash'])
    .where('chain', '=', chain)
    .executeTakeFirst();
  if (head && (Number(head.seq) !== expected - 1 || head.hash !== prevHash)) {
    return result({
      seq: expected,
      problem: `missing: the chain's last entry is ${head.seq}, found up to ${expected - 1}`,
    });
  }
  return result(null);
}

function problemOf(row: AuditEntryRow, expected: number, prevHash: string): string | null {
  if (Number(row.seq) !== expected) return `missing: the next entry found is ${row.seq}`;
  if (row.prev_hash !== prevHash) return 'does not link to the entry before it (its previous hash differs)';
  if (auditHash(prevHash, contentOfRow(row)) !== row.hash)
    return 'altered: its content does not match its hash';
  return null;
}
