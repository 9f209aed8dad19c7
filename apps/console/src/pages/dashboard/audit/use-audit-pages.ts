import { useCallback, useEffect, useState } from 'react';
import { data, rest, type Schemas } from '../../../lib/api.ts';
import { type AuditQuery, filled } from './audit-query.ts';

type Pages = {
  entries: Schemas['AuditEntry'][];
  next: string | null;
  loading: boolean;
  error: unknown;
};

/**
 * A trail's entries, newest first, a page at a time: the first page when the query changes, older ones
 * appended on `more` (the cursor the last page gave). A stale answer (the query changed meanwhile) is dropped.
 */
export function useAuditPages(query: AuditQuery) {
  const key = JSON.stringify(filled(query));
  const [pages, setPages] = useState<Pages & { key: string }>({
    key,
    entries: [],
    next: null,
    loading: true,
    error: null,
  });

  const load = useCallback(
    async (cursor: string | null, signal?: AbortSignal) => {
      setPages((p) => ({ ...p, loading: true, error: null }));
      try {
        const page = await data(
          rest.GET('/api/audit', {
            params: {
              query: { ...(JSON.parse(key) as Record<string, string>), ...(cursor ? { cursor } : {}) },
            },
            signal,
          }),
        );
        setPages((p) =>
          signal?.aborted || (p.key !== key && cursor)
            ? p
            : {
                key,
                entries: cursor ? [...p.entries, ...page.entries] : page.entries,
                next: page.nextCursor,
                loading: false,
                error: null,
              },
        );
      } catch (error) {
        if (!signal?.aborted) setPages((p) => ({ ...p, loading: false, error }));
      }
    },
    [key],
  );

  useEffect(() => {
    const controller = new AbortController();
    setPages({ key, entries: [], next: null, loading: true, error: null });
    void load(null, controller.signal);
    return () => controller.abort();
  }, [key, load]);

  return { ...pages, more: () => (pages.next ? load(pages.next) : Promise.resolve()) };
}
