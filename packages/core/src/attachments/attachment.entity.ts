import { defineEntity, p } from '@mikro-orm/core';
import type { AttachmentKind, AttachmentStatus } from '@verdict/contracts';
import { User } from '../accounts/user.entity.ts';
import { Debate } from '../debates/debate.entity.ts';

/**
 * A file or fetched page attached to a debate. `content_type` is the server's (decided by the extension and
 * checked against the bytes), never the client's. `text` is the extracted text, at most 50,000 characters,
 * set by the engine nodes' extraction worker when `status` turns from pending to ready (extraction.ts,
 * which claims a pending one with `claimed_until` and `extraction_attempts`).
 */
export const AttachmentSchema = defineEntity({
  name: 'Attachment',
  tableName: 'attachments',
  indexes: [
    { name: 'attachments_debate_created_index', properties: ['debate', 'createdAt'] },
    {
      name: 'attachments_pending_index',
      expression: `create index "attachments_pending_index" on "attachments" ("created_at") where "status" = 'pending'`,
    },
  ],
  checks: [
    { name: 'attachments_kind_check', expression: `kind in ('file', 'url')` },
    { name: 'attachments_status_check', expression: `status in ('pending', 'ready', 'failed')` },
  ],
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    debate: () => p.manyToOne(Debate).deleteRule('cascade'),
    owner: () => p.manyToOne(User).deleteRule('cascade').index(),
    kind: p.string().length(10).$type<AttachmentKind>(),
    filename: p.string().length(255),
    contentType: p.string().length(100),
    size: p.integer(),
    status: p.string().length(20).$type<AttachmentStatus>().default('pending'),
    failureReason: p.string().length(500).nullable(),
    text: p.text().nullable(),
    url: p.string().length(2000).nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
    /** While pending: when the extraction claim on it runs out (null: never claimed, or released). */
    claimedUntil: p.datetime().nullable(),
    /** Extraction claims it has had: past the limit, a file that never finishes extracting fails. */
    extractionAttempts: p.smallint().default(0),
  },
});

export class Attachment extends AttachmentSchema.class {}
AttachmentSchema.setClass(Attachment);
