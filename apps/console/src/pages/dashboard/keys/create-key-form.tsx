import { type FormEvent, useState } from 'react';
import { useFieldIssues } from '../../../components/field-issue.tsx';
import { FormError } from '../../../components/form-error.tsx';
import { client, type Schemas } from '../../../lib/api.ts';
import { CreateApiKeyInput } from '../../../lib/contracts.ts';
import { checked } from '../../../lib/form-issues.ts';

/** Name a new key and create it; the caller shows the full key, which the API returns only now. */
export function CreateKeyForm({ onCreated }: { onCreated: (key: Schemas['CreatedApiKey']) => void }) {
  const [name, setName] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const fields = useFieldIssues(error);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onCreated(await client.keys.create(checked(CreateApiKeyInput, { name: name.trim() })));
      setName('');
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="panel stack" onSubmit={submit} aria-labelledby="create-key-heading" noValidate>
      <h2 id="create-key-heading">Create a key</h2>
      <div className="row">
        <div className="field">
          <label>
            Key name
            <input
              {...fields.control('name')}
              value={name}
              onChange={(e) => setName(e.target.value)}
              required
              maxLength={CreateApiKeyInput.shape.name.maxLength ?? undefined}
              placeholder="e.g. laptop, CI"
            />
          </label>
          {fields.issue('name')}
        </div>
        <button type="submit" disabled={busy || !name.trim()}>
          Create key
        </button>
      </div>
      <FormError error={error} fields={['name']} />
    </form>
  );
}
