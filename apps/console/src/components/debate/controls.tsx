import { type FormEvent, useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import { rest } from '../../lib/api.ts';
import { useFieldIssues } from '../field-issue.tsx';
import { FormError } from '../form-error.tsx';

type Props = { id: string; paused: boolean; running: boolean };
type Command = 'pause' | 'resume' | 'skip';

/**
 * The owner's controls of a running debate: pause (after the turns in flight), resume, skip to the verdict,
 * inject content for the next round, cancel (which deletes the debate). The stream shows their effect; the
 * answer only says whether the command was accepted.
 */
export function DebateControls({ id, paused, running }: Props) {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState('');
  const [confirmCancel, setConfirmCancel] = useState(false);
  const fields = useFieldIssues(error);
  const [, navigate] = useLocation();
  // What a pause or resume click said is over once the stream shows the debate paused or running again
  // (from here or elsewhere): the line then says where the debate is, not what was asked.
  // biome-ignore lint/correctness/useExhaustiveDependencies: cleared whenever `paused` changes
  useEffect(() => setStatus(''), [paused]);

  const act = async (label: string, call: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await call();
      setStatus(label);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  const command = (type: Command, label: string) =>
    act(label, () => rest.POST('/api/debates/{id}/commands', { params: { path: { id } }, body: { type } }));

  const inject = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const content = String(new FormData(form).get('payload') ?? '').trim();
    if (!content) return;
    void act('Content queued for the next round', async () => {
      await rest.POST('/api/debates/{id}/commands', {
        params: { path: { id } },
        body: { type: 'inject', payload: { content } },
      });
      form.reset();
    });
  };

  if (!running) return null;
  return (
    <section className="panel" aria-labelledby="controls-heading">
      <h2 id="controls-heading">Controls</h2>
      <div className="controls">
        {paused ? (
          <button type="button" disabled={busy} onClick={() => void command('resume', 'Resuming…')}>
            Resume
          </button>
        ) : (
          <button
            type="button"
            disabled={busy}
            onClick={() => void command('pause', 'Pausing once the turns being spoken are finished…')}
          >
            Pause
          </button>
        )}
        <button
          type="button"
          className="secondary"
          disabled={busy}
          onClick={() => void command('skip', 'Skipping to the verdict')}
        >
          Skip to verdict
        </button>
        {confirmCancel ? (
          <>
            <button
              type="button"
              className="danger"
              disabled={busy}
              onClick={() =>
                void act('Cancelled', async () => {
                  await rest.DELETE('/api/debates/{id}', { params: { path: { id } } });
                  navigate('/');
                })
              }
            >
              Yes, cancel and delete
            </button>
            <button type="button" className="secondary" onClick={() => setConfirmCancel(false)}>
              Keep it running
            </button>
          </>
        ) : (
          <button type="button" className="secondary" disabled={busy} onClick={() => setConfirmCancel(true)}>
            Cancel
          </button>
        )}
      </div>
      <form className="row" onSubmit={inject}>
        <div className="field">
          <label>
            Inject content for the next round
            {/* The API names the text `payload.content`: its issues are the `payload` field's. */}
            <input {...fields.control('payload')} maxLength={5000} />
          </label>
          {fields.issue('payload')}
        </div>
        <button type="submit" className="secondary" disabled={busy}>
          Inject
        </button>
      </form>
      <p className="muted" role="status">
        {status || (paused ? 'Paused: nothing more is said until you resume.' : '')}
      </p>
      <FormError error={error} fields={['payload']} />
    </section>
  );
}
