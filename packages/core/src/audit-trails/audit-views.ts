import type { AuditEntry } from '@verdict/contracts';
import type { Selectable } from 'kysely';
import type { AuditTables } from '../audit/tables.ts';

export type AuditEntryRow = Selectable<AuditTables['audit_entries']>;

/** An entry as its readers see it: the columns grouped as the hash covers them (audit-hash.ts). */
export function toAuditEntry(row: AuditEntryRow): AuditEntry {
  return {
    chain: row.chain,
    seq: Number(row.seq),
    at: new Date(row.at).toISOString(),
    actor: {
      kind: row.actor_kind as AuditEntry['actor']['kind'],
      id: row.actor_id ?? null,
      keyId: row.actor_key_id ?? null,
    },
    action: row.action,
    target: { type: row.target_type, id: row.target_id ?? null },
    origin: { ip: row.ip ?? null, userAgent: row.user_agent ?? null, requestId: row.request_id ?? null },
    changes: row.changes as AuditEntry['changes'],
    prevHash: row.prev_hash,
    hash: row.hash,
  };
}
