import { type FormEvent, useId, useState } from 'react';
import { useLocation } from 'wouter';
import { FormError } from '../../../components/form-error.tsx';
import { client } from '../../../lib/api.ts';

type Mode = 'fast' | 'balanced' | 'thorough';
const MODES: { value: Mode; label: string }[] = [
  { value: 'fast', label: 'Fast (1 credit)' },
  { value: 'balanced', label: 'Balanced (3 credits)' },
  { value: 'thorough', label: 'Thorough (8 credits)' },
];

/** Start a debate and follow it live; the API's refusals (validation, limits, credits) show as given. */
export function NewDebateForm({ simulated }: { simulated: boolean }) {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [, navigate] = useLocation();
  const headingId = useId();

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const context = String(form.get('context') ?? '').trim();
    setBusy(true);
    setError(null);
    try {
      const created = await client.debates.create({
        question: String(form.get('question') ?? '').trim(),
        mode: String(form.get('mode')) as Mode,
        agentCount: Number(form.get('agentCount')),
        maxRounds: Number(form.get('maxRounds')),
        ...(context ? { context } : {}),
      });
      navigate(`/debates/${created.debateId}`);
    } catch (caught) {
      setError(caught);
      setBusy(false);
    }
  };

  return (
    <form className="panel stack" onSubmit={submit} aria-labelledby={headingId}>
      <h2 id={headingId}>New debate</h2>
      <label>
        Question
        <textarea name="question" required minLength={10} maxLength={2000} rows={3} />
      </label>
      <div className="row">
        <label>
          Mode
          <select name="mode" defaultValue="fast">
            {MODES.map((mode) => (
              <option key={mode.value} value={mode.value}>
                {mode.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Agents
          <input name="agentCount" type="number" min={2} max={7} defaultValue={3} required />
        </label>
        <label>
          Rounds
          <input name="maxRounds" type="number" min={1} max={5} defaultValue={2} required />
        </label>
      </div>
      <label>
        Context
        <textarea name="context" maxLength={5000} rows={2} aria-describedby={`${headingId}-context`} />
      </label>
      <p id={`${headingId}-context`} className="hint muted">
        Optional: background the debaters should know.
      </p>
      <FormError error={error} />
      <div className="controls">
        <button type="submit" disabled={busy}>
          Start debate
        </button>
        {simulated ? <SimulatedNote /> : null}
      </div>
    </form>
  );
}

/**
 * Said once a verdict of the account's came from the simulated model (what the service runs when it has no
 * provider keys): the API names simulated models `simulated/…`, so it is known only after a first debate.
 */
function SimulatedNote() {
  return (
    <p className="simulated-note">
      Debates here run on the simulated debater model: this server has no provider keys, so answers are
      stand-ins marked [simulated].
    </p>
  );
}
