import { defineEntity, p } from '@mikro-orm/core';

/**
 * Where retention cut a chain: every entry up to `seq` (the last of them hashed to `hash`, made at `at`)
 * was removed at `removedAt`. Verification starts from the latest checkpoint's hash. Append-only, and a
 * checkpoint can only name an entry that exists with that hash and is older than the shortest retention
 * (migration 0038), so retention is the one way entries leave.
 */
export const AuditCheckpointSchema = defineEntity({
  name: 'AuditCheckpoint',
  tableName: 'audit_checkpoints',
  properties: {
    chain: p.text().primary(),
    seq: p.bigint('number').primary(),
    hash: p.text(),
    at: p.datetime(),
    removedAt: p.datetime(),
    removed: p.bigint('number'),
  },
});

export class AuditCheckpoint extends AuditCheckpointSchema.class {}
AuditCheckpointSchema.setClass(AuditCheckpoint);
