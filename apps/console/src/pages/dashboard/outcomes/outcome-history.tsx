import { useState } from 'react';
import { Link } from 'wouter';
import { FormError } from '../../../components/form-error.tsx';
import { formatDate, humanize, percent } from '../../../components/format.ts';
import { data, rest, type Schemas } from '../../../lib/api.ts';
import { useLoad } from '../../../lib/use-load.ts';

const PAGE_SIZE = 20;

/** Resolved outcomes, most recently resolved first, with those just told on this page leading. */
export function OutcomeHistory({ justResolved }: { justResolved: Schemas['OutcomeRecord'][] }) {
  const [offset, setOffset] = useState(0);
  const history = useLoad(
    (signal) =>
      data(rest.GET('/api/outcomes/history', { params: { query: { limit: PAGE_SIZE, offset } }, signal })),
    [offset],
  );
  const read = history.data;
  const fresh = justResolved.filter((r) => !read?.outcomes.some((o) => o.debateId === r.debateId));
  const page = read && {
    total: read.total + fresh.length,
    outcomes: offset === 0 ? [...fresh, ...read.outcomes] : read.outcomes,
  };
  return (
    <section aria-labelledby="outcome-history">
      <h2 id="outcome-history">Resolved</h2>
      <FormError error={history.error} />
      {page === undefined ? null : page.outcomes.length === 0 ? (
        <p className="empty">No resolved outcomes yet.</p>
      ) : (
        <div className="table-scroll">
          <table>
            <caption className="visually-hidden">Resolved outcomes, most recent first</caption>
            <thead>
              <tr>
                <th scope="col">Question</th>
                <th scope="col">Verdict</th>
                <th scope="col">Confidence</th>
                <th scope="col">Outcome</th>
                <th scope="col">Satisfaction</th>
                <th scope="col">Notes</th>
                <th scope="col">Resolved</th>
              </tr>
            </thead>
            <tbody>
              {page.outcomes.map((o) => (
                <tr key={o.debateId}>
                  <td>
                    <Link href={`/debates/${o.debateId}`}>{o.question}</Link>
                  </td>
                  <td>{humanize(o.recommendation)}</td>
                  <td className="number">{percent(o.confidence)}</td>
                  <td>
                    <span className={`outcome-status ${o.outcomeStatus}`}>{humanize(o.outcomeStatus)}</span>
                  </td>
                  <td className="number">{o.satisfactionScore ?? '—'}</td>
                  <td>{o.outcomeNotes ?? ''}</td>
                  <td>{o.recordedAt ? formatDate(o.recordedAt) : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {page && page.total > PAGE_SIZE ? (
        <nav className="pager" aria-label="Resolved outcome pages">
          <button
            type="button"
            className="secondary"
            disabled={offset === 0}
            onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))}
          >
            Previous
          </button>
          <span>
            {offset + 1}–{Math.min(offset + PAGE_SIZE, page.total)} of {page.total}
          </span>
          <button
            type="button"
            className="secondary"
            disabled={offset + PAGE_SIZE >= page.total}
            onClick={() => setOffset(offset + PAGE_SIZE)}
          >
            Next
          </button>
        </nav>
      ) : null}
    </section>
  );
}
