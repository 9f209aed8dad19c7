import type { CreateDebateInput as CreateDebateBody } from '@verdict/sdk';
import { type FormEvent, useId, useState } from 'react';
import { useLocation } from 'wouter';
import { useFieldIssues } from '../../../components/field-issue.tsx';
import { FormError } from '../../../components/form-error.tsx';
import { client } from '../../../lib/api.ts';
import { CreateDebateInput, type DebateMode, MODE_PANEL } from '../../../lib/contracts.ts';
import { checked } from '../../../lib/form-issues.ts';
import { EstimateLine, useDebateEstimate } from './debate-estimate.tsx';

const MODES: { value: DebateMode; label: string }[] = [
  { value: 'fast', label: 'Fast' },
  { value: 'balanced', label: 'Balanced' },
  { value: 'thorough', label: 'Thorough' },
];
const AGENTS = CreateDebateInput.shape.agentCount.unwrap();
const ROUNDS = CreateDebateInput.shape.maxRounds.unwrap();
const QUESTION = CreateDebateInput.shape.question;
const CONTEXT = CreateDebateInput.shape.context.unwrap();

type Draft = { question: string; mode: DebateMode; agents: string; rounds: string; context: string };

/**
 * The body the form sends, and has priced, for what it shows: agents and rounds only where they differ from
 * the mode's own panel (thorough's 8 agents is the mode's, beyond what agentCount may ask for).
 */
function bodyOf(draft: Draft): CreateDebateBody {
  const panel = MODE_PANEL[draft.mode];
  const agents = Number(draft.agents);
  const rounds = Number(draft.rounds);
  const context = draft.context.trim();
  return {
    question: draft.question.trim(),
    mode: draft.mode,
    ...(agents !== panel.agents ? { agentCount: draft.agents === '' ? Number.NaN : agents } : {}),
    ...(rounds !== panel.rounds ? { maxRounds: draft.rounds === '' ? Number.NaN : rounds } : {}),
    ...(context ? { context } : {}),
  };
}

/**
 * Start a debate and follow it live. Choosing a mode sets its panel; agents and rounds may then be changed,
 * and the line under them says what will run and what it costs, as the API's estimate of this very body
 * says. The API's refusals (validation, limits, credits) show at the fields they name, or under the form.
 */
export function NewDebateForm({ simulated }: { simulated: boolean }) {
  const [draft, setDraft] = useState<Draft>({
    question: '',
    mode: 'fast',
    agents: String(MODE_PANEL.fast.agents),
    rounds: String(MODE_PANEL.fast.rounds),
    context: '',
  });
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [, navigate] = useLocation();
  const id = useId();
  const fields = useFieldIssues(error);
  const body = bodyOf(draft);
  const priced = useDebateEstimate(body);
  const set = (field: keyof Draft) => (event: { target: { value: string } }) =>
    setDraft((d) => ({ ...d, [field]: event.target.value }));
  const chooseMode = (mode: DebateMode) =>
    setDraft((d) => ({
      ...d,
      mode,
      agents: String(MODE_PANEL[mode].agents),
      rounds: String(MODE_PANEL[mode].rounds),
    }));

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const created = await client.debates.create(checked(CreateDebateInput, body));
      navigate(`/debates/${created.debateId}`);
    } catch (caught) {
      setError(caught);
      setBusy(false);
    }
  };

  return (
    <form className="panel stack" onSubmit={submit} aria-labelledby={id} noValidate>
      <h2 id={id}>New debate</h2>
      <div className="field">
        <label>
          Question
          <textarea
            {...fields.control('question')}
            value={draft.question}
            onChange={set('question')}
            required
            minLength={QUESTION.minLength ?? undefined}
            maxLength={QUESTION.maxLength ?? undefined}
            rows={3}
          />
        </label>
        {fields.issue('question')}
      </div>
      <div className="row">
        <div className="field">
          {/* Labelled by id, not by wrapping: a wrapping label would add the chosen option to its name. */}
          <label htmlFor={`${id}-mode`}>Mode</label>
          <select
            {...fields.control('mode')}
            id={`${id}-mode`}
            value={draft.mode}
            onChange={(e) => chooseMode(e.target.value as DebateMode)}
          >
            {MODES.map((mode) => (
              <option key={mode.value} value={mode.value}>
                {mode.label}: {MODE_PANEL[mode.value].agents} agents × {MODE_PANEL[mode.value].rounds}{' '}
                {MODE_PANEL[mode.value].rounds === 1 ? 'round' : 'rounds'}
              </option>
            ))}
          </select>
          {fields.issue('mode')}
        </div>
        <div className="field">
          <label>
            Agents
            <input
              {...fields.control('agentCount', `${id}-estimate`)}
              type="number"
              value={draft.agents}
              onChange={set('agents')}
              min={AGENTS.minValue ?? undefined}
              max={Math.max(AGENTS.maxValue ?? 0, MODE_PANEL[draft.mode].agents)}
              required
            />
          </label>
          {fields.issue('agentCount')}
        </div>
        <div className="field">
          <label>
            Rounds
            <input
              {...fields.control('maxRounds', `${id}-estimate`)}
              type="number"
              value={draft.rounds}
              onChange={set('rounds')}
              min={ROUNDS.minValue ?? undefined}
              max={ROUNDS.maxValue ?? undefined}
              required
            />
          </label>
          {fields.issue('maxRounds')}
        </div>
      </div>
      <EstimateLine priced={priced} id={`${id}-estimate`} />
      <div className="field">
        <label>
          Context
          <textarea
            {...fields.control('context', `${id}-context`)}
            value={draft.context}
            onChange={set('context')}
            maxLength={CONTEXT.maxLength ?? undefined}
            rows={2}
          />
        </label>
        {fields.issue('context')}
        <p id={`${id}-context`} className="hint muted">
          Optional: background the debaters should know.
        </p>
      </div>
      <FormError error={error} fields={['question', 'mode', 'agentCount', 'maxRounds', 'context']} />
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
