import { useSearchParams } from 'wouter';
import { FormError } from '../../components/form-error.tsx';
import { data, rest } from '../../lib/api.ts';
import { useLoad } from '../../lib/use-load.ts';
import { AuditFilters } from './audit/audit-filters.tsx';
import { exportHref, filled, queryFrom } from './audit/audit-query.ts';
import { AuditTable } from './audit/audit-table.tsx';
import { ChainState } from './audit/chain-state.tsx';
import { useAuditPages } from './audit/use-audit-pages.ts';

/**
 * The audit log (Pro, BYOK Pro and Enterprise): who changed what in the account or a workspace it
 * administers, whether the trail's hash chain holds, and its export.
 */
export default function AuditPage() {
  const [params, setParams] = useSearchParams();
  const query = queryFrom(params);
  const workspaces = useLoad((signal) => data(rest.GET('/api/workspaces', { signal })), []);
  const verification = useLoad(
    (signal) =>
      data(
        rest.GET('/api/audit/verify', {
          params: { query: query.workspaceId ? { workspaceId: query.workspaceId } : {} },
          signal,
        }),
      ),
    [query.workspaceId],
  );
  const pages = useAuditPages(query);

  return (
    <section className="dashboard">
      <h1>Audit log</h1>
      <p className="muted">
        Every change to the account, its keys, webhooks, schedules, shares and workspaces, with who made it
        and from where. Entries are chained by hash: one altered or removed breaks the chain, and the check
        below says where.
      </p>
      <AuditFilters
        key={JSON.stringify(query)}
        query={query}
        workspaces={workspaces.data?.workspaces ?? []}
        onApply={(next) => setParams(filled(next))}
      />
      <FormError error={verification.error ?? pages.error} />
      {verification.error ? null : <ChainState verification={verification.data} />}
      <p className="row">
        <a href={exportHref(query, 'ndjson')} download>
          Export NDJSON
        </a>
        <a href={exportHref(query, 'csv')} download>
          Export CSV
        </a>
      </p>
      {pages.error && pages.entries.length === 0 ? null : <AuditTable entries={pages.entries} />}
      {pages.loading ? <p className="loading">Loading…</p> : null}
      {pages.next && !pages.loading ? (
        <button type="button" className="secondary" onClick={() => void pages.more()}>
          Older entries
        </button>
      ) : null}
    </section>
  );
}
