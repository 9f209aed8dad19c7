import type { AuditListQuery, AuditPage } from '@verdict/contracts';
import { AppError } from '../shared/app-error.ts';
import { readableChain } from './audit-access.ts';
import { entryPage } from './audit-entry-pages.ts';
import type { AuditResources } from './audit-resources.ts';
import { toAuditEntry } from './audit-views.ts';

/** The cursor after an entry: its seq, opaque to clients so the paging may change without breaking them. */
export const cursorAfter = (seq: number): string => Buffer.from(`s${seq}`).toString('base64url');

function seqOfCursor(cursor: string): number {
  const seq = /^s(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('latin1'))?.[1];
  if (seq !== undefined) return Number(seq);
  const message = 'not a cursor a page of this list gave';
  throw new AppError('VALIDATION_ERROR', `cursor: ${message}`, {
    details: [{ path: 'cursor', message, code: 'invalid_cursor' }],
  });
}

/**
 * A page of a trail the caller may read (audit-access.ts), newest first, filtered by who acted, the action
 * (exactly, or every one under a prefix ending with `.`), the target and a time range; `nextCursor` reads
 * on from the last entry, null on the last page.
 */
export const listAuditEntries =
  ({ db, plans }: AuditResources) =>
  async (userId: string, { workspaceId, cursor, limit, ...filters }: AuditListQuery): Promise<AuditPage> => {
    const em = db.em();
    const past = cursor === undefined ? null : seqOfCursor(cursor);
    const chain = await readableChain(em, plans, userId, workspaceId);
    // One more than asked tells whether another page follows, without counting.
    const rows = await entryPage(em, chain, filters, { order: 'desc', past, limit: limit + 1 });
    const entries = rows.slice(0, limit).map(toAuditEntry);
    const last = entries.at(-1);
    return { entries, nextCursor: rows.length > limit && last ? cursorAfter(last.seq) : null };
  };
