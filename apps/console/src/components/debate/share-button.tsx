import { useState } from 'react';
import { data, rest } from '../../lib/api.ts';
import { FormError } from '../form-error.tsx';

/** Creates (or rotates) the debate's share link and shows it, with a copy button. */
export function ShareButton({ id }: { id: string }) {
  const [url, setUrl] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const share = async () => {
    setError(null);
    try {
      const link = await data(rest.POST('/api/share/{debateId}', { params: { path: { debateId: id } } }));
      setUrl(link.shareUrl);
    } catch (caught) {
      setError(caught);
    }
  };
  return (
    <div className="share">
      <button type="button" className="secondary" onClick={() => void share()}>
        {url ? 'New share link' : 'Share'}
      </button>
      {url ? (
        <p>
          <a href={url} aria-label="Share link">
            {url}
          </a>{' '}
          <button
            type="button"
            className="link-button"
            onClick={() => void navigator.clipboard?.writeText(url)}
          >
            Copy
          </button>
        </p>
      ) : null}
      <FormError error={error} />
    </div>
  );
}
