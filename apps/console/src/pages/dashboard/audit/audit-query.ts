/** The trail and filters the page shows, as its address carries them (so a view can be bookmarked). */
export type AuditQuery = {
  workspaceId?: string;
  action?: string;
  targetType?: string;
  targetId?: string;
  actor?: string;
  from?: string;
  to?: string;
};

export const QUERY_FIELDS = [
  'workspaceId',
  'action',
  'targetType',
  'targetId',
  'actor',
  'from',
  'to',
] as const;

export function queryFrom(params: URLSearchParams): AuditQuery {
  const query: AuditQuery = {};
  for (const field of QUERY_FIELDS) {
    const value = params.get(field)?.trim();
    if (value) query[field] = value;
  }
  return query;
}

/** The query's filled fields, for an address or an API call. */
export const filled = (query: AuditQuery): Record<string, string> =>
  Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined && v !== '')) as Record<
    string,
    string
  >;

/** Where the export of what is shown downloads from: the same filters, the whole trail, in `format`. */
export const exportHref = (query: AuditQuery, format: 'ndjson' | 'csv') =>
  `/api/audit/export?${new URLSearchParams({ ...filled(query), format })}`;
