import type { AuditEntry } from '@verdict/contracts';
import { type AuditEntryRow, contentOfRow } from '../audit/entry-rows.ts';

/** An entry as its readers see it: its content as the hash covers it (entry-rows.ts), and the hashes. */
export const toAuditEntry = (row: AuditEntryRow): AuditEntry => ({
  ...(contentOfRow(row) as Omit<AuditEntry, 'prevHash' | 'hash'>),
  prevHash: row.prev_hash,
  hash: row.hash,
});
