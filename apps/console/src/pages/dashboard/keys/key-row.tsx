import { useEffect, useRef, useState } from 'react';
import { FormError } from '../../../components/form-error.tsx';
import { formatDateTime } from '../../../components/format.ts';
import { client, type Schemas } from '../../../lib/api.ts';

/** One key; revoking asks once more, since a revoked key stops working at once and for good. */
export function KeyRow({ apiKey, onRevoked }: { apiKey: Schemas['ApiKey']; onRevoked: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);
  const revokeButton = useRef<HTMLButtonElement>(null);
  const asked = useRef(false);
  // Keep keyboard focus where the question moves it: on Cancel (the safe answer), then back on Revoke.
  useEffect(() => {
    if (confirming) cancelButton.current?.focus();
    else if (asked.current) revokeButton.current?.focus();
    asked.current ||= confirming;
  }, [confirming]);

  const revoke = async () => {
    setBusy(true);
    setError(null);
    try {
      await client.keys.revoke(apiKey.id);
      onRevoked();
    } catch (caught) {
      setError(caught);
      setBusy(false);
    }
  };

  return (
    <tr>
      <td>{apiKey.name}</td>
      <td>
        <code>{apiKey.keyPrefix}…</code>
      </td>
      <td>
        <time dateTime={apiKey.createdAt}>{formatDateTime(apiKey.createdAt)}</time>
      </td>
      <td>
        {confirming ? (
          <fieldset className="confirm controls">
            <legend>Revoke “{apiKey.name}”? Requests with it will fail.</legend>
            <button type="button" className="danger" disabled={busy} onClick={() => void revoke()}>
              Yes, revoke
            </button>
            <button
              ref={cancelButton}
              type="button"
              className="secondary"
              disabled={busy}
              onClick={() => setConfirming(false)}
            >
              Cancel
            </button>
          </fieldset>
        ) : (
          <button ref={revokeButton} type="button" className="secondary" onClick={() => setConfirming(true)}>
            Revoke
          </button>
        )}
        <FormError error={error} />
      </td>
    </tr>
  );
}
