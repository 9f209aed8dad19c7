import { type FormEvent, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { FormError } from '../components/form-error.tsx';
import { rest } from '../lib/api.ts';
import { useSession } from '../lib/session.tsx';

/** Sign in, or create an account; either sets the session cookie and returns to the page asked for. */
export default function SignIn() {
  const [mode, setMode] = useState<'sign-in' | 'sign-up'>('sign-in');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const { refresh } = useSession();
  const [, navigate] = useLocation();
  const next = new URLSearchParams(useSearch()).get('next');
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
      if (mode === 'sign-up')
        await rest.POST('/api/auth/register', { body: { email, password, name: String(form.get('name')) } });
      else await rest.POST('/api/auth/login', { body: { email, password } });
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
      <form onSubmit={submit} className="stack">
        {mode === 'sign-up' ? (
          <label>
            Name
            <input name="name" autoComplete="name" required maxLength={100} />
          </label>
        ) : null}
        <label>
          Email
          <input name="email" type="email" autoComplete="email" required />
        </label>
        <label>
          Password
          <input
            name="password"
            type="password"
            autoComplete={mode === 'sign-in' ? 'current-password' : 'new-password'}
            required
            minLength={mode === 'sign-up' ? 8 : 1}
          />
        </label>
        <FormError error={error} />
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
    </main>
  );
}
