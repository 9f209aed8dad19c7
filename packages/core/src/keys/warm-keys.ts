import type { StopListening } from '../db/listener.ts';
import type { Database } from '../db/orm.ts';
import { createKeyCache, type KeyCache } from './key-cache.ts';
import type { ApiKeyResources, KeyPrincipal } from './key-resources.ts';

/** The database notification channel of migration 0028: `<schema> <user id>` of a changed principal. */
const PRINCIPAL_CHANGES = 'key_principal_changes';
/** How long a warm key is kept even if no change is heard: a bound, should a change ever go unheard. */
const KEY_CACHE_TTL_MS = 60_000;
const KEY_CACHE_ENTRIES = 10_000;

export type WarmKeys = ReturnType<typeof warmKeys>;

/**
 * The keys this process has looked up (key-cache.ts), and the listening for changes that keeps them right.
 * Started by the first key presented (`listen`), so that processes that never authenticate (engine nodes,
 * operator commands) never listen. Until it listens, every key is looked up.
 */
export function warmKeys({ db, clock }: ApiKeyResources) {
  const cache = createKeyCache<KeyPrincipal>({
    now: clock.now,
    ttlMs: KEY_CACHE_TTL_MS,
    maxEntries: KEY_CACHE_ENTRIES,
  });
  let listening: Promise<StopListening | null> | null = null;
  return {
    cache,
    listen: () => {
      listening ??= listenForChanges(db, cache);
    },
    /** Stops hearing of changes (the process is closing). */
    close: async () => {
      const stop = await listening;
      cache.distrust();
      await stop?.();
    },
  };
}

const listenForChanges = (db: Database, cache: KeyCache<KeyPrincipal>) =>
  db
    .listen(PRINCIPAL_CHANGES, {
      onNotification: (payload) => {
        const [schema, userId] = payload.split(' ');
        if (schema === db.schema && userId) cache.forgetUser(userId);
      },
      onLost: () => cache.distrust(),
      onListening: () => cache.trust(),
    })
    .catch(() => null); // never listening: no cache, every key looked up as before
