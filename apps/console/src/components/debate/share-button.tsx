import { useState } from 'react';
import { data, rest, type Schemas } from '../../lib/api.ts';
import { FormError } from '../form-error.tsx';

type Settings = Schemas['ShareSettings'];
const SETTING_LABELS: Record<keyof Settings, string> = {
  allowComments: 'Readers may comment',
  allowFork: 'Readers may fork it',
  showCost: 'Show what it cost',
  requireSignIn: 'Only signed-in readers',
};

/** Creates (or rotates) the debate's share link, shows it with a copy button, and sets what it allows. */
export function ShareButton({ id }: { id: string }) {
  const [link, setLink] = useState<{ url: string; settings: Settings } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const share = async () => {
    setError(null);
    try {
      const created = await data(rest.POST('/api/share/{debateId}', { params: { path: { debateId: id } } }));
      setLink({ url: created.shareUrl, settings: created.settings });
    } catch (caught) {
      setError(caught);
    }
  };
  const change = async (name: keyof Settings, value: boolean) => {
    setError(null);
    try {
      const updated = await data(
        rest.PATCH('/api/share/{debateId}', {
          params: { path: { debateId: id } },
          body: { settings: { [name]: value } },
        }),
      );
      setLink((current) => (current ? { ...current, settings: updated.settings } : current));
    } catch (caught) {
      setError(caught);
    }
  };
  return (
    <section className="share panel" aria-labelledby="share-heading">
      <h2 id="share-heading">Share</h2>
      <button type="button" className="secondary" onClick={() => void share()}>
        {link ? 'Replace the link' : 'Create a share link'}
      </button>
      {link ? (
        <>
          <p>
            <a href={link.url} aria-label="Share link">
              {link.url}
            </a>{' '}
            <button
              type="button"
              className="link-button"
              onClick={() => void navigator.clipboard?.writeText(link.url)}
            >
              Copy
            </button>
          </p>
          <fieldset>
            <legend>What the link allows</legend>
            {(Object.keys(SETTING_LABELS) as (keyof Settings)[]).map((name) => (
              <label key={name} className="inline">
                <input
                  type="checkbox"
                  checked={Boolean(link.settings[name])}
                  onChange={(event) => void change(name, event.currentTarget.checked)}
                />
                {SETTING_LABELS[name]}
              </label>
            ))}
          </fieldset>
        </>
      ) : null}
      <FormError error={error} />
    </section>
  );
}
