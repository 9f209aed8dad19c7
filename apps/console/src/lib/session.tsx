import { createContext, type ReactNode, useCallback, useContext, useMemo } from 'react';
import { data, rest, type Schemas } from './api.ts';
import { type Loaded, useLoad } from './use-load.ts';

type SessionUser = Schemas['SessionUser'];
type Session = {
  /** The signed-in user; null when signed out; undefined while the first check runs. */
  user: SessionUser | null | undefined;
  refresh: () => void;
  signOut: () => Promise<void>;
};

const SessionContext = createContext<Session>({
  user: undefined,
  refresh: () => {},
  signOut: async () => {},
});

/**
 * Who is signed in, from the session cookie (`GET /api/auth/state`): it answers 200 signed out too, so a
 * signed-out visit leaves no failed request in the browser's console (GET /api/auth/session answers 401).
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const session = useLoad((signal) => data(rest.GET('/api/auth/state', { signal })), []);
  const { reload } = session;
  const signOut = useCallback(async () => {
    await rest.POST('/api/auth/logout', {});
    reload();
  }, [reload]);
  const user = userOf(session);
  const value = useMemo<Session>(
    () => ({
      user,
      refresh: reload,
      signOut,
    }),
    [user, reload, signOut],
  );
  return <SessionContext value={value}>{children}</SessionContext>;
}

export const useSession = () => useContext(SessionContext);

/**
 * Unknown while a check runs, even when an earlier one answered: right after signing in, that earlier
 * answer (signed out) would send the new session straight back to the sign-in page.
 */
function userOf(session: Loaded<Schemas['SignInState']>): Session['user'] {
  if (session.loading) return undefined;
  if (session.data === undefined) return session.error ? null : undefined;
  return session.data.signedIn ? session.data.user : null;
}
