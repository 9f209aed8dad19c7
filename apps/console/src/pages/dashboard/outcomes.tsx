import { useState } from 'react';
import { FormError } from '../../components/form-error.tsx';
import { data, rest, type Schemas } from '../../lib/api.ts';
import { useLoad } from '../../lib/use-load.ts';
import { OutcomeHistory } from './outcomes/outcome-history.tsx';
import { PendingOutcome } from './outcomes/pending-outcome.tsx';

const RESOLVED = new Set(['correct', 'partially_correct', 'wrong']);

/** Say what became of past decisions, and see what was said before. */
export default function OutcomesPage() {
  const pending = useLoad((signal) => data(rest.GET('/api/outcomes/pending', { signal })), []);
  // Settled here, so shown without reading the lists again (a free account has 10 requests a minute).
  const [settledIds, setSettledIds] = useState<ReadonlySet<string>>(new Set());
  const [justResolved, setJustResolved] = useState<Schemas['OutcomeRecord'][]>([]);
  const [announcement, setAnnouncement] = useState('');

  const settled = (record: Schemas['OutcomeRecord'], message: string) => {
    setAnnouncement(message);
    setSettledIds((ids) => new Set(ids).add(record.debateId));
    if (RESOLVED.has(record.outcomeStatus)) setJustResolved((list) => [record, ...list]);
  };
  const waiting = pending.data?.outcomes.filter((o) => !settledIds.has(o.debateId));

  return (
    <section className="dashboard">
      <h1>Outcomes</h1>
      <p className="muted">
        Tell how each decision turned out: resolved outcomes feed your decision score within seconds.
      </p>
      <p className="visually-hidden" role="status">
        {announcement}
      </p>
      <h2>Awaiting an outcome</h2>
      <FormError error={pending.error} />
      {waiting === undefined ? (
        pending.error ? null : (
          <p className="loading">Loading…</p>
        )
      ) : waiting.length === 0 ? (
        <p className="empty">Nothing awaits an outcome: completed debates appear here.</p>
      ) : (
        <ul className="outcome-list">
          {waiting.map((outcome) => (
            <PendingOutcome key={outcome.debateId} outcome={outcome} onSettled={settled} />
          ))}
        </ul>
      )}
      <OutcomeHistory justResolved={justResolved} />
    </section>
  );
}
