import { type FormEvent, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { useFieldIssues } from '../components/field-issue.tsx';
import { FormError } from '../components/form-error.tsx';
import { rest } from '../lib/api.ts';
import { LoginInput, MIN_PASSWORD_LENGTH, RegisterInput } from '../lib/contracts.ts';
import { checked } from '../lib/form-issues.ts';
import { useSession } from '../lib/session.tsx';
import { ssoRefusalMessage } from '../lib/sso-refusal.ts';
import { SingleSignOn } from './sign-in/single-sign-on.tsx';

const MAX_PASSWORD_LENGTH = RegisterInput.shape.password.maxLength ?? undefined;
const MAX_NAME_LENGTH = RegisterInput.shape.name.maxLength ?? undefined;

/** Sign in, or create an account; either sets the session cookie and returns to the page asked for. */
export default function SignIn() {
  const [mode, setMode] = useState<'sign-in' | 'sign-up'>('sign-in');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const { refresh } = useSession();
  const [, navigate] = useLocation();
  const fields = useFieldIssues(error);
  const search = new URLSearchParams(useSearch());
  const next = search.get('next');
  // Single sign-on sends the browser back here when it refused: the reason says why.
  const ssoError = search.get('sso_error');
  // Only a path on this site: an open redirect would let a link send a signed-in user anywhere.
  const destination = next?.startsWith('/') && !next.startsWith('//') ? next : '/';

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = String(form.get('email'));
    const password = String(form.get('password'));
    setBusy(true);
    setError(null);
    try {
      if (mode === 'sign-up') {
        const body = checked(RegisterInput, { email, password, name: String(form.get('name')) });
        await rest.POST('/api/auth/register', { body });
      } else await rest.POST('/api/auth/login', { body: checked(LoginInput, { email, password }) });
      refresh();
      navigate(destination, { replace: true });
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main id="main" className="narrow">
      <h1>{mode === 'sign-in' ? 'Sign in to Verdict' : 'Create your Verdict account'}</h1>
      {ssoError !== null ? (
        <div className="error" role="alert">
          <p>{ssoRefusalMessage(ssoError)}</p>
        </div>
      ) : null}
      {/* The contract's checks, not the browser's, so every rule reads the same before and after sending. */}
      <form onSubmit={submit} className="stack" noValidate>
        {mode === 'sign-up' ? (
          <div className="field">
            <label>
              Name
              <input {...fields.control('name')} autoComplete="name" required maxLength={MAX_NAME_LENGTH} />
            </label>
            {fields.issue('name')}
          </div>
        ) : null}
        <div className="field">
          <label>
            Email
            <input {...fields.control('email')} type="email" autoComplete="email" required />
          </label>
          {fields.issue('email')}
        </div>
        <div className="field">
          <label>
            Password
            <input
              {...fields.control('password', mode === 'sign-up' ? 'password-rules' : undefined)}
              type="password"
              autoComplete={mode === 'sign-in' ? 'current-password' : 'new-password'}
              required
              minLength={mode === 'sign-up' ? MIN_PASSWORD_LENGTH : undefined}
              maxLength={MAX_PASSWORD_LENGTH}
            />
          </label>
          {fields.issue('password')}
          {mode === 'sign-up' ? (
            <p id="password-rules" className="hint muted">
              At least {MIN_PASSWORD_LENGTH} characters, and not one of the most commonly used passwords.
            </p>
          ) : null}
        </div>
        <FormError error={error} fields={['name', 'email', 'password']} />
        <button type="submit" disabled={busy}>
          {mode === 'sign-in' ? 'Sign in' : 'Create account'}
        </button>
      </form>
      <p>
        {mode === 'sign-in' ? 'New here? ' : 'Have an account? '}
        <button
          type="button"
          className="link-button"
          onClick={() => {
            setMode(mode === 'sign-in' ? 'sign-up' : 'sign-in');
            setError(null);
          }}
        >
          {mode === 'sign-in' ? 'Create an account' : 'Sign in instead'}
        </button>
      </p>
      {mode === 'sign-in' ? <SingleSignOn destination={destination} /> : null}
    </main>
  );
}
