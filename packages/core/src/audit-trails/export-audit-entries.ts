import type { AuditEntry, AuditFilters } from '@verdict/contracts';
import { recordAudit } from '../audit/record-audit.ts';
import type { Database } from '../db/orm.ts';
import { readableChain } from './audit-access.ts';
import { entryPage } from './audit-entry-pages.ts';
import { type AuditResources, auditQuery } from './audit-resources.ts';
import { toAuditEntry } from './audit-views.ts';

/** Entries read per query of an export: a long trail streams in bounded memory. */
export const EXPORT_PAGE = 1000;

/**
 * A trail the caller may read, whole or filtered as a list is, oldest first (the order its hashes chain
 * in): who may read, and the plan, are checked before this resolves, so a refusal is an answer and not a
 * broken stream. The entries then come a page at a time as they are iterated, up to the last one there
 * when the export began (its own `audit.export` entry the last): entries appended meanwhile wait for the
 * next export.
 */
export const exportAuditEntries =
  ({ db, clock, plans }: AuditResources) =>
  async (userId: string, { workspaceId, ...filters }: AuditFilters): Promise<AsyncGenerator<AuditEntry>> => {
    const em = db.em();
    const chain = await readableChain(em, plans, userId, workspaceId);
    // An export takes the trail out of the service: itself recorded, in the trail it exports (and so in it).
    await db.em().transactional((tx) =>
      recordAudit(tx, clock, {
        owner: workspaceId ? { workspaceId } : { accountId: userId },
        action: 'audit.export',
        target: { type: 'audit_trail', id: chain },
        changes: Object.keys(filters).length > 0 ? { filters: { before: null, after: filters } } : {},
      }),
    );
    const head = await auditQuery(em)
      .selectFrom('audit_chains')
      .select('seq')
      .where('chain', '=', chain)
      .executeTakeFirst();
    return pagesOf(db, chain, filters, Number(head?.seq ?? 0));
  };

async function* pagesOf(
  db: Database,
  chain: string,
  filters: Omit<AuditFilters, 'workspaceId'>,
  upTo: number,
): AsyncGenerator<AuditEntry> {
  let past = 0;
  for (;;) {
    const rows = await entryPage(db.em(), chain, filters, { order: 'asc', past, upTo, limit: EXPORT_PAGE });
    for (const row of rows) yield toAuditEntry(row);
    const last = rows.at(-1);
    if (rows.length < EXPORT_PAGE || !last) return;
    past = Number(last.seq);
  }
}
