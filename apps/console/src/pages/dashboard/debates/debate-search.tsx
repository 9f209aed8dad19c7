import type { SearchResults } from '@verdict/sdk';
import { type FormEvent, useId, useState } from 'react';
import { Link } from 'wouter';
import { useFieldIssues } from '../../../components/field-issue.tsx';
import { FormError } from '../../../components/form-error.tsx';
import { formatDateTime, humanize } from '../../../components/format.ts';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { client } from '../../../lib/api.ts';
import { plainTurnText } from '../../../lib/turn-text.ts';

const PAGE_SIZE = 10;

/** Keyword search over the caller's questions (GET /api/search); each hit links to its debate. */
export function DebateSearch() {
  const [query, setQuery] = useState('');
  const [results, setResults] = useState<{ q: string; page: SearchResults } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const headingId = useId();
  const fields = useFieldIssues(error);

  const run = async (q: string, page: number) => {
    setBusy(true);
    setError(null);
    try {
      setResults({ q, page: await client.search.debates({ q, page, limit: PAGE_SIZE }) });
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const q = query.trim();
    if (q) void run(q, 1);
  };

  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>Search</h2>
      <search>
        <form className="row" onSubmit={submit}>
          <div className="field">
            <label>
              Search your debates
              <input
                {...fields.control('q')}
                type="search"
                value={query}
                onChange={(e) => setQuery(e.target.value)}
                maxLength={200}
              />
            </label>
            {fields.issue('q')}
          </div>
          <button type="submit" disabled={busy || !query.trim()}>
            Search
          </button>
          {results ? (
            <button
              type="button"
              className="secondary"
              onClick={() => {
                setResults(null);
                setQuery('');
              }}
            >
              Clear
            </button>
          ) : null}
        </form>
      </search>
      <FormError error={error} fields={['q']} />
      <div aria-live="polite">
        {results ? (
          <p className="muted">
            {results.page.total === 0
              ? `No debates match “${results.q}”.`
              : `${results.page.total} ${results.page.total === 1 ? 'debate matches' : 'debates match'} “${results.q}”.`}
          </p>
        ) : null}
      </div>
      {results && results.page.results.length > 0 ? (
        <>
          <ul className="debate-list">
            {results.page.results.map((hit) => (
              <li key={hit.id} className="debate-item">
                <Link href={`/debates/${hit.id}`} className="question">
                  {hit.question}
                </Link>
                <div className="meta">
                  <StatusBadge status={hit.status} />
                  {hit.mode ? <span>{hit.mode}</span> : null}
                  <span>
                    Created <time dateTime={hit.createdAt}>{formatDateTime(hit.createdAt)}</time>
                  </span>
                </div>
                {hit.recommendation ? (
                  <p className="verdict-line">
                    <strong>{humanize(hit.recommendation)}</strong>
                    {hit.oneLiner ? <> — {plainTurnText(hit.oneLiner)}</> : null}
                  </p>
                ) : null}
              </li>
            ))}
          </ul>
          {results.page.totalPages > 1 ? (
            <nav className="pager" aria-label="Search result pages">
              <button
                type="button"
                className="secondary"
                disabled={busy || results.page.page <= 1}
                onClick={() => void run(results.q, results.page.page - 1)}
              >
                Previous
              </button>
              <span>
                Page {results.page.page} of {results.page.totalPages}
              </span>
              <button
                type="button"
                className="secondary"
                disabled={busy || results.page.page >= results.page.totalPages}
                onClick={() => void run(results.q, results.page.page + 1)}
              >
                Next
              </button>
            </nav>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
