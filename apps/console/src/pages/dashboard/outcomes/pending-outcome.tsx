import { type FormEvent, useId, useState } from 'react';
import { Link } from 'wouter';
import { FormError } from '../../../components/form-error.tsx';
import { formatDate, humanize, percent } from '../../../components/format.ts';
import { client, data, rest, type Schemas } from '../../../lib/api.ts';

type Outcome = Schemas['OutcomeRecord'];
type Told = 'correct' | 'partially_correct' | 'wrong' | 'too_early';
const OUTCOMES: { value: Told; label: string }[] = [
  { value: 'correct', label: 'Correct' },
  { value: 'partially_correct', label: 'Partially correct' },
  { value: 'wrong', label: 'Wrong' },
  { value: 'too_early', label: 'Too early to tell' },
];

/** One decision awaiting its outcome, with the form to tell it or skip it. */
export function PendingOutcome({
  outcome,
  onSettled,
}: {
  outcome: Outcome;
  onSettled: (record: Outcome, announcement: string) => void;
}) {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();

  const act = async (call: () => Promise<Outcome>, announcement: string) => {
    setBusy(true);
    setError(null);
    try {
      onSettled(await call(), announcement);
    } catch (caught) {
      setError(caught);
      setBusy(false);
    }
  };

  const record = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const status = String(form.get('outcomeStatus')) as Told;
    const notes = String(form.get('outcomeNotes') ?? '').trim();
    const satisfaction = String(form.get('satisfactionScore') ?? '');
    void act(
      () =>
        client.outcomes.record(outcome.debateId, {
          outcomeStatus: status,
          ...(notes ? { outcomeNotes: notes } : {}),
          ...(satisfaction ? { satisfactionScore: Number(satisfaction) } : {}),
        }),
      `Outcome recorded: ${humanize(status)}.`,
    );
  };
  const skip = () =>
    void act(
      () => data(rest.POST('/api/debates/{id}/outcome/skip', { params: { path: { id: outcome.debateId } } })),
      'Outcome skipped.',
    );

  return (
    <li className="panel outcome">
      <h3 id={`${id}-q`}>
        <Link href={`/debates/${outcome.debateId}`}>{outcome.question}</Link>
      </h3>
      <p className="muted">
        {humanize(outcome.recommendation)} at {percent(outcome.confidence)} confidence ·{' '}
        {humanize(outcome.domain)} · decided {formatDate(outcome.createdAt)}
      </p>
      <form className="stack" onSubmit={record} aria-labelledby={`${id}-q`}>
        <div className="row">
          <label>
            Outcome
            <select name="outcomeStatus" required defaultValue="">
              <option value="" disabled>
                Choose…
              </option>
              {OUTCOMES.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          </label>
          <label>
            Satisfaction
            <select name="satisfactionScore" defaultValue="">
              <option value="">Not given</option>
              {[1, 2, 3, 4, 5].map((n) => (
                <option key={n} value={n}>
                  {n} of 5
                </option>
              ))}
            </select>
          </label>
        </div>
        <label>
          Notes
          <textarea name="outcomeNotes" maxLength={500} rows={2} />
        </label>
        <FormError error={error} />
        <div className="controls">
          <button type="submit" disabled={busy}>
            Record outcome
          </button>
          <button type="button" className="secondary" disabled={busy} onClick={skip}>
            Skip
          </button>
        </div>
      </form>
    </li>
  );
}
