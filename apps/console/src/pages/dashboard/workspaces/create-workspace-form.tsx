import { type FormEvent, useState } from 'react';
import { FormError } from '../../../components/form-error.tsx';
import { data, rest, type Schemas } from '../../../lib/api.ts';

/** The slug a name suggests: lowercase letters, digits and single hyphens. */
const slugOf = (name: string) =>
  name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48);

/** Create a workspace (the BYOK Pro and Enterprise plans); the slug follows the name until edited. */
export function CreateWorkspaceForm({ onCreated }: { onCreated: (workspace: Schemas['Workspace']) => void }) {
  const [name, setName] = useState('');
  const [slug, setSlug] = useState('');
  const [slugEdited, setSlugEdited] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const description = String(new FormData(event.currentTarget).get('description') ?? '').trim();
    setBusy(true);
    setError(null);
    try {
      const workspace = await data(
        rest.POST('/api/workspaces', {
          body: { name: name.trim(), slug, ...(description ? { description } : {}) },
        }),
      );
      onCreated(workspace);
    } catch (caught) {
      setError(caught);
      setBusy(false);
    }
  };

  return (
    <form className="panel stack" onSubmit={submit} aria-labelledby="create-workspace-heading">
      <h2 id="create-workspace-heading">Create a workspace</h2>
      <p className="muted small">Workspaces come with the BYOK Pro and Enterprise plans.</p>
      <div className="row">
        <label>
          Name
          <input
            value={name}
            required
            maxLength={100}
            onChange={(e) => {
              setName(e.target.value);
              if (!slugEdited) setSlug(slugOf(e.target.value));
            }}
          />
        </label>
        <label>
          Slug
          <input
            value={slug}
            required
            minLength={2}
            maxLength={48}
            pattern="[a-z0-9\-]+"
            aria-describedby="workspace-slug-hint"
            onChange={(e) => {
              setSlug(e.target.value);
              setSlugEdited(true);
            }}
          />
        </label>
      </div>
      <p id="workspace-slug-hint" className="hint muted">
        2–48 lowercase letters, digits and hyphens; unique across the service.
      </p>
      <label>
        Description
        <textarea name="description" maxLength={500} rows={2} />
      </label>
      <FormError error={error} />
      <div>
        <button type="submit" disabled={busy}>
          Create workspace
        </button>
      </div>
    </form>
  );
}
