import type { DebateListQuery } from '@verdict/sdk';
import { useEffect, useId } from 'react';
import { useSearchParams } from 'wouter';
import { FormError } from '../../../components/form-error.tsx';
import { data, rest, type Schemas } from '../../../lib/api.ts';
import { useLoad } from '../../../lib/use-load.ts';
import { DebateItem } from './debate-item.tsx';

type Status = Schemas['Debate']['status'];
const STATUSES: Status[] = ['pending', 'running', 'paused', 'completed', 'failed'];
const PAGE_SIZE = 10;

/** The filters live in the address, so that Back, a reload or a shared link keeps them. */
function useFilters() {
  const [params, setParams] = useSearchParams();
  const status = STATUSES.find((s) => s === params.get('status'));
  const sortBy = params.get('sortBy') === 'completedAt' ? 'completedAt' : 'createdAt';
  const sortOrder = params.get('order') === 'asc' ? 'asc' : 'desc';
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const set = (changes: Record<string, string | null>) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        for (const [key, value] of Object.entries(changes)) {
          if (value === null || value === '') next.delete(key);
          else next.set(key, value);
        }
        return next;
      },
      { replace: true },
    );
  return { status, sortBy, sortOrder, page, set } as const;
}

/** The caller's debates, filtered, sorted and paged by the API. */
export function DebateList({
  workspaceId,
  onLoaded,
}: {
  workspaceId?: string;
  onLoaded?: (page: Schemas['DebatePage']) => void;
}) {
  const filters = useFilters();
  const headingId = useId();
  const query: DebateListQuery = {
    page: filters.page,
    limit: PAGE_SIZE,
    sortBy: filters.sortBy,
    sortOrder: filters.sortOrder,
    ...(filters.status ? { status: filters.status } : {}),
    ...(workspaceId ? { workspaceId } : {}),
  };
  const list = useLoad(
    (signal) => data(rest.GET('/api/debates', { params: { query }, signal })),
    [filters.page, filters.sortBy, filters.sortOrder, filters.status, workspaceId],
  );
  const page = list.data;
  useEffect(() => {
    if (page) onLoaded?.(page);
  }, [page, onLoaded]);

  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{workspaceId ? 'Workspace debates' : 'Your debates'}</h2>
      <div className="row filters">
        <label>
          Status
          <select
            value={filters.status ?? ''}
            onChange={(e) => filters.set({ status: e.target.value, page: null })}
          >
            <option value="">Any status</option>
            {STATUSES.map((status) => (
              <option key={status} value={status}>
                {status}
              </option>
            ))}
          </select>
        </label>
        <label>
          Sort by
          <select
            value={filters.sortBy}
            onChange={(e) => filters.set({ sortBy: e.target.value, page: null })}
          >
            <option value="createdAt">Created</option>
            <option value="completedAt">Completed</option>
          </select>
        </label>
        <label>
          Order
          <select
            value={filters.sortOrder}
            onChange={(e) => filters.set({ order: e.target.value, page: null })}
          >
            <option value="desc">Newest first</option>
            <option value="asc">Oldest first</option>
          </select>
        </label>
        <button type="button" className="secondary" onClick={list.reload}>
          Refresh
        </button>
      </div>
      <FormError error={list.error} />
      {page === undefined ? (
        list.error ? null : (
          <p className="loading">Loading…</p>
        )
      ) : page.debates.length === 0 ? (
        <p className="empty">
          {filters.status ? `No ${filters.status} debates.` : 'No debates yet: start one above.'}
        </p>
      ) : (
        <ul className="debate-list" aria-busy={list.loading}>
          {page.debates.map((debate) => (
            <DebateItem key={debate.id} debate={debate} />
          ))}
        </ul>
      )}
      {page && page.totalPages > 1 ? (
        <nav className="pager" aria-label="Debate pages">
          <button
            type="button"
            className="secondary"
            disabled={page.page <= 1}
            onClick={() => filters.set({ page: String(page.page - 1) })}
          >
            Previous
          </button>
          <span aria-live="polite">
            Page {page.page} of {page.totalPages} ({page.total} debates)
          </span>
          <button
            type="button"
            className="secondary"
            disabled={page.page >= page.totalPages}
            onClick={() => filters.set({ page: String(page.page + 1) })}
          >
            Next
          </button>
        </nav>
      ) : null}
    </section>
  );
}
