import { type ReactNode, useEffect, useRef, useState } from 'react';
import { FormError } from './form-error.tsx';

/**
 * A button for an action that cannot be taken back (revoking a key, turning single sign-on off): it asks
 * once more, with the question as the legend of its two answers. Keyboard focus goes where the question
 * moves it: to Cancel (the safe answer) when asked, back to the button after. A failure shows under it.
 */
export function ConfirmAction({
  label,
  question,
  confirmLabel,
  action,
}: {
  label: string;
  question: ReactNode;
  confirmLabel: string;
  action: () => Promise<void>;
}) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);
  const actionButton = useRef<HTMLButtonElement>(null);
  const asked = useRef(false);
  useEffect(() => {
    if (confirming) cancelButton.current?.focus();
    else if (asked.current) actionButton.current?.focus();
    asked.current ||= confirming;
  }, [confirming]);

  const act = async () => {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (caught) {
      setError(caught);
      setBusy(false);
    }
  };

  return (
    <>
      {confirming ? (
        <fieldset className="confirm controls">
          <legend>{question}</legend>
          <button type="button" className="danger" disabled={busy} onClick={() => void act()}>
            {confirmLabel}
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
        <button ref={actionButton} type="button" className="secondary" onClick={() => setConfirming(true)}>
          {label}
        </button>
      )}
      <FormError error={error} />
    </>
  );
}
