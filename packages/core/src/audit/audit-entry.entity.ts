import { defineEntity, p } from '@mikro-orm/core';
import type { AuditChanges } from './audit-changes.ts';

/**
 * One audited change, in its chain (`workspace:<id>` or `account:<id>`) at `seq`: `hash` is SHA-256 over the
 * previous entry's hash and this entry's content (audit-hash.ts), so changing, removing or reordering any
 * entry breaks every hash after it. Append-only: a trigger refuses updates, and deletes other than a
 * retention checkpoint's prefix (migration 0038). No foreign keys: an entry outlives what it names.
 */
export const AuditEntrySchema = defineEntity({
  name: 'AuditEntry',
  tableName: 'audit_entries',
  indexes: [{ properties: ['chain', 'at'], name: 'audit_entries_chain_at_index' }],
  properties: {
    chain: p.text().primary(),
    seq: p.bigint('number').primary(),
    at: p.datetime(),
    /** user, key, operator or system */
    actorKind: p.text(),
    /** The user (for a key, its owner), the operator's command, or the service's part that acted. */
    actorId: p.text().nullable(),
    actorKeyId: p.uuid().nullable(),
    /** `<target type>.<verb>`, e.g. `api_key.revoke`. */
    action: p.text(),
    targetType: p.text(),
    targetId: p.text().nullable(),
    ip: p.text().nullable(),
    userAgent: p.text().nullable(),
    requestId: p.text().nullable(),
    changes: p.json<AuditChanges>(),
    prevHash: p.text(),
    hash: p.text(),
  },
});

export class AuditEntry extends AuditEntrySchema.class {}
AuditEntrySchema.setClass(AuditEntry);
