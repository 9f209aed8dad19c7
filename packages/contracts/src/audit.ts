import { z } from 'zod';
import { UuidInput } from './ids.ts';

export const AUDIT_LIMIT_MAX = 200;

/**
 * One audited change as its trail shows it: who (`actor`), what (`action` on `target`), from where
 * (`origin`), the fields it changed, and the hashes that chain it to the entry before.
 *
 * @example
 * { chain: 'workspace:6f1…', seq: 42, at: '2026-11-30T09:00:00.000Z',
 *   actor: { kind: 'key', id: '0c9…', keyId: '5aa…' }, action: 'webhook.update',
 *   target: { type: 'webhook', id: 'b21…' }, origin: { ip: '203.0.113.7', userAgent: 'curl/8', requestId: 'req-1' },
 *   changes: { url: { before: 'https://a.example', after: 'https://b.example' }, secret: { changed: true } },
 *   prevHash: '9e1…', hash: '41c…' }
 */
export const AuditEntry = z
  .object({
    chain: z.string().meta({ description: 'The trail: `workspace:<id>` or `account:<id>`' }),
    seq: z.number().int().meta({ description: "The entry's place in its chain, from 1, without gaps" }),
    at: z.iso.datetime(),
    actor: z.object({
      kind: z.enum(['user', 'key', 'operator', 'system']),
      id: z.string().nullable().meta({
        description: "The user (a key's owner for a key), the operator's command, or the service's part",
      }),
      keyId: z.string().nullable().meta({ description: 'The API key that made the change, if one did' }),
    }),
    action: z.string().meta({ description: '`<target type>.<verb>`, e.g. `api_key.revoke`' }),
    target: z.object({ type: z.string(), id: z.string().nullable() }),
    origin: z.object({
      ip: z.string().nullable(),
      userAgent: z.string().nullable(),
      requestId: z.string().nullable(),
    }),
    changes: z.record(z.string(), z.unknown()).meta({
      description:
        'The fields changed, by name: `{before, after}`, or `{changed: true}` for a secret. Empty for none.',
    }),
    prevHash: z.string().meta({ description: "The previous entry's hash (64 zeros before the first)" }),
    hash: z.string().meta({ description: 'SHA-256 (hex) over prevHash and this entry' }),
  })
  .meta({ id: 'AuditEntry' });
export type AuditEntry = z.infer<typeof AuditEntry>;

const AuditTrailOf = {
  workspaceId: UuidInput.optional().meta({
    description: "The workspace's trail (its owner and admins); absent: the caller's own account's",
  }),
};

/** Text a filter compares with: letters, digits and `._:-`, as actions and target types are written. */
const filterText = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z0-9_.:-]+$/);

/** The filters a list and an export of a trail share. */
export const AuditFilters = z.object({
  ...AuditTrailOf,
  actor: UuidInput.optional().meta({ description: 'Only changes made by this user (or their keys)' }),
  action: filterText(100).optional().meta({
    description: 'This action exactly, or every action it starts when it ends with `.` (`webhook.`)',
  }),
  targetType: filterText(100).optional(),
  targetId: filterText(200).optional(),
  from: z.iso.datetime({ offset: true }).optional().meta({ description: 'Made at or after this time' }),
  to: z.iso.datetime({ offset: true }).optional().meta({ description: 'Made before this time' }),
});
export type AuditFilters = z.infer<typeof AuditFilters>;

/** GET /api/audit: a page of a trail, newest first. Numbers arrive as query strings and are coerced. */
export const AuditListQuery = AuditFilters.extend({
  cursor: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,24}$/)
    .optional()
    .meta({ description: 'nextCursor of the previous page' }),
  limit: z.coerce.number().int().min(1).max(AUDIT_LIMIT_MAX).default(50),
});
export type AuditListQuery = z.infer<typeof AuditListQuery>;

export const AuditPage = z
  .object({
    entries: z.array(AuditEntry).meta({ description: 'Newest first' }),
    nextCursor: z
      .string()
      .nullable()
      .meta({ description: 'Pass as cursor for the next (older) page; null on the last' }),
  })
  .meta({ id: 'AuditPage' });
export type AuditPage = z.infer<typeof AuditPage>;

export const AuditExportFormat = z.enum(['ndjson', 'csv']);
export type AuditExportFormat = z.infer<typeof AuditExportFormat>;

/** GET /api/audit/export: the filters, and the file's format (NDJSON unless `csv`). */
export const AuditExportQuery = AuditFilters.extend({
  format: AuditExportFormat.default('ndjson').meta({
    description: 'ndjson: one entry per line; csv: a header row, changes as a JSON text column',
  }),
});
export type AuditExportQuery = z.infer<typeof AuditExportQuery>;

/** GET /api/audit/verify. */
export const AuditVerifyQuery = z.object(AuditTrailOf);
export type AuditVerifyQuery = z.infer<typeof AuditVerifyQuery>;

export const AuditVerification = z
  .object({
    chain: z.string(),
    verified: z.boolean().meta({ description: 'Every entry follows, links to and hashes as it says' }),
    entries: z.number().int().meta({ description: 'Entries checked (since the latest retention cut)' }),
    firstBroken: z
      .object({ seq: z.number().int(), problem: z.string() })
      .nullable()
      .meta({ description: 'The first entry that does not hold, and why; null when verified' }),
    checkpoint: z
      .object({ seq: z.number().int(), at: z.iso.datetime() })
      .nullable()
      .meta({ description: 'Where retention last cut the chain (checking starts after it); null if never' }),
  })
  .meta({ id: 'AuditVerification' });
export type AuditVerification = z.infer<typeof AuditVerification>;
