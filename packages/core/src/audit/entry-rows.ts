import { type Selectable, sql } from 'kysely';
import type { AuditContent } from './audit-hash.ts';
import type { AuditTables } from './tables.ts';

/** An entry as read back from `audit_entries`. */
export type AuditEntryRow = Selectable<AuditTables['audit_entries']>;

/** An entry's row: its content's columns, and the hashes that chain it. */
export const auditEntryRow = (content: AuditContent, prevHash: string, hash: string) => ({
  chain: content.chain,
  seq: content.seq,
  at: content.at,
  actor_kind: content.actor.kind,
  actor_id: content.actor.id,
  actor_key_id: content.actor.keyId,
  action: content.action,
  target_type: content.target.type,
  target_id: content.target.id,
  ip: content.origin.ip,
  user_agent: content.origin.userAgent,
  request_id: content.origin.requestId,
  changes: sql<never>`${JSON.stringify(content.changes)}::jsonb`,
  prev_hash: prevHash,
  hash,
});

/**
 * A stored entry's content, as its hash covers it: the inverse of auditEntryRow, so verification rehashes
 * exactly what was written and readers see the fields grouped the same way.
 */
export const contentOfRow = (row: AuditEntryRow): AuditContent => ({
  chain: row.chain,
  seq: Number(row.seq),
  at: new Date(row.at).toISOString(),
  actor: { kind: row.actor_kind, id: row.actor_id ?? null, keyId: row.actor_key_id ?? null },
  action: row.action,
  target: { type: row.target_type, id: row.target_id ?? null },
  origin: { ip: row.ip ?? null, userAgent: row.user_agent ?? null, requestId: row.request_id ?? null },
  changes: row.changes as AuditContent['changes'],
});
