import { type FormEvent, useId, useState } from 'react';
import { Link } from 'wouter';
import { useFieldIssues } from '../../../components/field-issue.tsx';
import { FormError } from '../../../components/form-error.tsx';
import { formatDate, humanize, percent } from '../../../components/format.ts';
import { client, data, rest, type Schemas } from '../../../lib/api.ts';
import { RecordOutcomeInput } from '../../../lib/contracts.ts';
import { checked } from '../../../lib/form-issues.ts';

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
  const fields = useFieldIssues(error);

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
        client.outcomes.record(
          outcome.debateId,
          checked(RecordOutcomeInput, {
            outcomeStatus: status,
            ...(notes ? { outcomeNotes: notes } : {}),
            ...(satisfaction ? { satisfactionScore: Number(satisfaction) } : {}),
          }),
        ),
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
      <form className="stack" onSubmit={record} aria-labelledby={`${id}-q`} noValidate>
        <div className="row">
          <div className="field">
            <label htmlFor={`${id}-status`}>Outcome</label>
            <select {...fields.control('outcomeStatus')} id={`${id}-status`} required defaultValue="">
              <option value="" disabled>
                Choose…
              </option>
              {OUTCOMES.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
            {fields.issue('outcomeStatus')}
          </div>
          <div className="field">
            <label htmlFor={`${id}-satisfaction`}>Satisfaction</label>
            <select {...fields.control('satisfactionScore')} id={`${id}-satisfaction`} defaultValue="">
              <option value="">Not given</option>
              {[1, 2, 3, 4, 5].map((n) => (
                <option key={n} value={n}>
                  {n} of 5
                </option>
              ))}
            </select>
            {fields.issue('satisfactionScore')}
          </div>
        </div>
        <div className="field">
          <label>
            Notes
            <textarea
              {...fields.control('outcomeNotes')}
              maxLength={RecordOutcomeInput.shape.outcomeNotes.unwrap().maxLength ?? undefined}
              rows={2}
            />
          </label>
          {fields.issue('outcomeNotes')}
        </div>
        <FormError error={error} fields={['outcomeStatus', 'satisfactionScore', 'outcomeNotes']} />
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
