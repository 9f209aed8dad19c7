import type { EntityManager } from '@mikro-orm/core';
import type { AuditFilters } from '@verdict/contracts';
import { sql } from 'kysely';
import type { AuditEntryRow } from '../audit/entry-rows.ts';
import { auditQuery } from './audit-resources.ts';

/** Where a keyset page starts and which way it reads. */
export type EntryPage = {
  order: 'asc' | 'desc';
  /** The seq the previous page ended on: this page starts past it. */
  past: number | null;
  /** The last seq to read (an export reads what was there when it began). */
  upTo?: number;
  limit: number;
};

/**
 * One keyset page of a chain's entries matching the filters: newest first from before `past` (a list's
 * pages), or oldest first from after `past` up to `upTo` (an export's). Every page is a range of the primary
 * key (chain, seq), however deep into the chain it starts: no offset to skip over.
 */
export function entryPage(
  em: EntityManager,
  chain: string,
  filters: Omit<AuditFilters, 'workspaceId'>,
  page: EntryPage,
): Promise<AuditEntryRow[]> {
  let select = auditQuery(em).selectFrom('audit_entries').selectAll().where('chain', '=', chain);
  if (page.past !== null) select = select.where('seq', page.order === 'asc' ? '>' : '<', page.past);
  if (page.upTo !== undefined) select = select.where('seq', '<=', page.upTo);
  // The user acted, signed in or through one of their keys; operators and the service have no user id.
  if (filters.actor)
    select = select.where('actor_id', '=', filters.actor).where('actor_kind', 'in', ['user', 'key']);
  const { action } = filters;
  if (action?.endsWith('.')) select = select.where(sql<boolean>`starts_with(action, ${action})`);
  else if (action) select = select.where('action', '=', action);
  if (filters.targetType) select = select.where('target_type', '=', filters.targetType);
  if (filters.targetId) select = select.where('target_id', '=', filters.targetId);
  if (filters.from) select = select.where('at', '>=', new Date(filters.from).toISOString());
  if (filters.to) select = select.where('at', '<', new Date(filters.to).toISOString());
  return select.orderBy('seq', page.order).limit(page.limit).execute();
}
