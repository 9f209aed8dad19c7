import { type FormEvent, useState } from 'react';
import { FormError } from '../../../components/form-error.tsx';
import { client, type Schemas } from '../../../lib/api.ts';

/** Name a new key and create it; the caller shows the full key, which the API returns only now. */
export function CreateKeyForm({ onCreated }: { onCreated: (key: Schemas['CreatedApiKey']) => void }) {
  const [name, setName] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onCreated(await client.keys.create({ name: name.trim() }));
      setName('');
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="panel stack" onSubmit={submit} aria-labelledby="create-key-heading">
      <h2 id="create-key-heading">Create a key</h2>
      <div className="row">
        <label>
          Key name
          <input
            value={name}
            onChange={(e) => setName(e.target.value)}
            required
            maxLength={100}
            placeholder="e.g. laptop, CI"
          />
        </label>
        <button type="submit" disabled={busy || !name.trim()}>
          Create key
        </button>
      </div>
      <FormError error={error} />
    </form>
  );
}
