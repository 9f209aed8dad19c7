import { createContext, type ReactNode, useCallback, useContext, useMemo } from 'react';
import { data, isUnauthorized, rest, type Schemas } from './api.ts';
import { type Loaded, useLoad } from './use-load.ts';

type SessionUser = Schemas['Session']['user'];
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

/** Who is signed in, from the session cookie (`GET /api/auth/session`). */
export function SessionProvider({ children }: { children: ReactNode }) {
  const session = useLoad(
    (signal) =>
      data(rest.GET('/api/auth/session', { signal })).catch((error: unknown) => {
        if (isUnauthorized(error)) return null;
        throw error;
      }),
    [],
  );
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
function userOf(session: Loaded<Schemas['Session'] | null>): Session['user'] {
  if (session.loading) return undefined;
  if (session.data === undefined) return session.error ? null : undefined;
  return session.data?.user ?? null;
}
