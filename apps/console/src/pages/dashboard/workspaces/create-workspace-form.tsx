import { type FormEvent, useState } from 'react';
import { useFieldIssues } from '../../../components/field-issue.tsx';
import { FormError } from '../../../components/form-error.tsx';
import { data, rest, type Schemas } from '../../../lib/api.ts';
import { CreateWorkspaceInput } from '../../../lib/contracts.ts';
import { checked } from '../../../lib/form-issues.ts';

const { name: NAME, slug: SLUG } = CreateWorkspaceInput.shape;
const DESCRIPTION = CreateWorkspaceInput.shape.description.unwrap().unwrap();

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
  const fields = useFieldIssues(error);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const description = String(new FormData(event.currentTarget).get('description') ?? '').trim();
    setBusy(true);
    setError(null);
    try {
      const workspace = await data(
        rest.POST('/api/workspaces', {
          body: checked(CreateWorkspaceInput, {
            name: name.trim(),
            slug,
            ...(description ? { description } : {}),
          }),
        }),
      );
      onCreated(workspace);
    } catch (caught) {
      setError(caught);
      setBusy(false);
    }
  };

  return (
    <form className="panel stack" onSubmit={submit} aria-labelledby="create-workspace-heading" noValidate>
      <h2 id="create-workspace-heading">Create a workspace</h2>
      <p className="muted small">Workspaces come with the BYOK Pro and Enterprise plans.</p>
      <div className="row">
        <div className="field">
          <label>
            Name
            <input
              {...fields.control('name')}
              value={name}
              required
              maxLength={NAME.maxLength ?? undefined}
              onChange={(e) => {
                setName(e.target.value);
                if (!slugEdited) setSlug(slugOf(e.target.value));
              }}
            />
          </label>
          {fields.issue('name')}
        </div>
        <div className="field">
          <label>
            Slug
            <input
              {...fields.control('slug', 'workspace-slug-hint')}
              value={slug}
              required
              minLength={SLUG.minLength ?? undefined}
              maxLength={SLUG.maxLength ?? undefined}
              onChange={(e) => {
                setSlug(e.target.value);
                setSlugEdited(true);
              }}
            />
          </label>
          {fields.issue('slug')}
        </div>
      </div>
      <p id="workspace-slug-hint" className="hint muted">
        {SLUG.minLength}–{SLUG.maxLength} lowercase letters, digits and hyphens; unique across the service.
      </p>
      <div className="field">
        <label>
          Description
          <textarea
            {...fields.control('description')}
            maxLength={DESCRIPTION.maxLength ?? undefined}
            rows={2}
          />
        </label>
        {fields.issue('description')}
      </div>
      <FormError error={error} fields={['name', 'slug', 'description']} />
      <div>
        <button type="submit" disabled={busy}>
          Create workspace
        </button>
      </div>
    </form>
  );
}
