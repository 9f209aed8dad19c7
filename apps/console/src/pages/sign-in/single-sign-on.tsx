import { type FormEvent, useId, useState } from 'react';
import { useFieldIssues } from '../../components/field-issue.tsx';
import { FormError } from '../../components/form-error.tsx';
import { CreateWorkspaceInput } from '../../lib/contracts.ts';
import { checked } from '../../lib/form-issues.ts';
import { ssoStartPath } from '../../lib/sso-refusal.ts';

const WorkspaceSlug = CreateWorkspaceInput.pick({ slug: true });
const SLUG = CreateWorkspaceInput.shape.slug;

/**
 * Sign in through the identity provider of a workspace, named by its slug: the browser goes to the API's
 * sign-in route (a full navigation: the provider's pages are another site), which comes back to
 * `destination` signed in, or to this page with the refusal's reason.
 */
export function SingleSignOn({ destination }: { destination: string }) {
  const [error, setError] = useState<unknown>(null);
  const fields = useFieldIssues(error);
  const hintId = useId();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const slug = String(new FormData(event.currentTarget).get('slug') ?? '')
      .trim()
      .toLowerCase();
    setError(null);
    try {
      checked(WorkspaceSlug, { slug });
    } catch (caught) {
      setError(caught);
      return;
    }
    window.location.assign(ssoStartPath(slug, destination));
  };

  return (
    <section aria-labelledby={`${hintId}-heading`}>
      <h2 id={`${hintId}-heading`}>Single sign-on</h2>
      <form onSubmit={submit} className="stack" noValidate>
        <div className="field">
          <label>
            Workspace
            <input
              {...fields.control('slug', hintId)}
              required
              autoCapitalize="none"
              spellCheck={false}
              minLength={SLUG.minLength ?? undefined}
              maxLength={SLUG.maxLength ?? undefined}
            />
          </label>
          {fields.issue('slug')}
          <p id={hintId} className="hint muted">
            Your workspace’s slug, as in <code>acme</code>: you sign in with your organisation’s account.
          </p>
        </div>
        <FormError error={error} fields={['slug']} />
        <button type="submit" className="secondary">
          Sign in with single sign-on
        </button>
      </form>
    </section>
  );
}
