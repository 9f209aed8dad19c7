import { createContext, type ReactNode, useCallback, useContext, useMemo } from 'react';
import { data, isUnauthorized, rest, type Schemas } from './api.ts';
import { useLoad } from './use-load.ts';

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
  const value = useMemo<Session>(
    () => ({
      user: session.data === undefined ? (session.error ? null : undefined) : (session.data?.user ?? null),
      refresh: reload,
      signOut,
    }),
    [session.data, session.error, reload, signOut],
  );
  return <SessionContext value={value}>{children}</SessionContext>;
}

export const useSession = () => useContext(SessionContext);
