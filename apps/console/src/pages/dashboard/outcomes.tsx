import { useState } from 'react';
import { FormError } from '../../components/form-error.tsx';
import { data, rest } from '../../lib/api.ts';
import { useLoad } from '../../lib/use-load.ts';
import { OutcomeHistory } from './outcomes/outcome-history.tsx';
import { PendingOutcome } from './outcomes/pending-outcome.tsx';

/** Say what became of past decisions, and see what was said before. */
export default function OutcomesPage() {
  const pending = useLoad((signal) => data(rest.GET('/api/outcomes/pending', { signal })), []);
  const [historyVersion, setHistoryVersion] = useState(0);
  const [announcement, setAnnouncement] = useState('');

  const settled = (message: string) => {
    setAnnouncement(message);
    pending.reload();
    setHistoryVersion((v) => v + 1);
  };

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
      {pending.data === undefined ? (
        pending.error ? null : (
          <p className="loading">Loading…</p>
        )
      ) : pending.data.outcomes.length === 0 ? (
        <p className="empty">Nothing awaits an outcome: completed debates appear here.</p>
      ) : (
        <ul className="outcome-list">
          {pending.data.outcomes.map((outcome) => (
            <PendingOutcome key={outcome.debateId} outcome={outcome} onSettled={settled} />
          ))}
        </ul>
      )}
      <OutcomeHistory version={historyVersion} />
    </section>
  );
}
