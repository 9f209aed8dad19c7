import { useEffect, useRef, useState } from 'react';
import type { Schemas } from '../../../lib/api.ts';

/** The full value of a key just created: the only time it is shown, so it can be copied now. */
export function NewKeyNotice({
  created,
  onDismiss,
}: {
  created: Schemas['CreatedApiKey'];
  onDismiss: () => void;
}) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const region = useRef<HTMLElement>(null);
  // Move focus to the key so keyboard and screen reader users land on it (and on its warning).
  useEffect(() => region.current?.focus(), []);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.key);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  };

  return (
    <section className="panel new-key" ref={region} tabIndex={-1} aria-labelledby="new-key-heading">
      <h2 id="new-key-heading">Key “{created.name}” created</h2>
      <p className="warning">
        Copy this key now: it will not be shown again. Anyone holding it can act as you.
      </p>
      <div className="row">
        <output className="secret" aria-label="New API key">
          {created.key}
        </output>
        <button type="button" onClick={() => void copy()}>
          Copy
        </button>
        <button type="button" className="secondary" onClick={onDismiss}>
          Done
        </button>
      </div>
      <p aria-live="polite" className="muted small">
        {copied === 'yes'
          ? 'Copied to the clipboard.'
          : copied === 'failed'
            ? 'Copying failed: select the key and copy it.'
            : ''}
      </p>
    </section>
  );
}
