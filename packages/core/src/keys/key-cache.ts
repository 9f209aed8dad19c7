/**
 * The keys this process has looked up, so that a warm key costs no database round trip. Correct only while
 * every change to what a lookup answered is heard: the cache is told of each (forgetUser, from the
 * database's notifications) and trusts itself only while it is listening (trust / distrust). A lookup that
 * overlapped a change is not remembered, since it may have read the row before the change committed.
 */
export type KeyCache<T> = ReturnType<typeof createKeyCache<T>>;

export type KeyCacheOptions = {
  now: () => number;
  /** A bound on any entry's age, in case a change was somehow not heard. */
  ttlMs: number;
  /** The oldest entries make room beyond this. */
  maxEntries: number;
};

type Entry<T> = { value: T; userId: string; expiresAt: number };

export function createKeyCache<T>({ now, ttlMs, maxEntries }: KeyCacheOptions) {
  const entries = new Map<string, Entry<T>>();
  const hashesOfUser = new Map<string, Set<string>>();
  let trusted = false;
  /** Moves on every change heard: a lookup begun under another generation may have read the old row. */
  let generation = 0;

  const drop = (hash: string) => {
    const entry = entries.get(hash);
    if (!entry) return;
    entries.delete(hash);
    const hashes = hashesOfUser.get(entry.userId);
    hashes?.delete(hash);
    if (hashes?.size === 0) hashesOfUser.delete(entry.userId);
  };

  const forgetAll = () => {
    generation++;
    entries.clear();
    hashesOfUser.clear();
  };

  return {
    /** What a warm key answered, unless the cache is not listening or the entry is too old. */
    get(hash: string): T | undefined {
      if (!trusted) return undefined;
      const entry = entries.get(hash);
      if (!entry) return undefined;
      if (entry.expiresAt <= now()) {
        drop(hash);
        return undefined;
      }
      return entry.value;
    },

    /** Taken before a lookup: `remember` keeps its answer only if nothing changed since. */
    mark: (): number => generation,

    remember(hash: string, userId: string, value: T, mark: number) {
      if (!trusted || mark !== generation) return;
      drop(hash);
      if (entries.size >= maxEntries) {
        const oldest = entries.keys().next();
        if (!oldest.done) drop(oldest.value);
      }
      entries.set(hash, { value, userId, expiresAt: now() + ttlMs });
      const hashes = hashesOfUser.get(userId) ?? new Set<string>();
      hashes.add(hash);
      hashesOfUser.set(userId, hashes);
    },

    /** Something a lookup of this user's keys answered has changed. */
    forgetUser(userId: string) {
      generation++;
      for (const hash of hashesOfUser.get(userId) ?? []) entries.delete(hash);
      hashesOfUser.delete(userId);
    },

    /** Changes are heard (again) from now on; what was kept before may be stale. */
    trust() {
      forgetAll();
      trusted = true;
    },

    /** Changes may go unheard: look every key up until trusted again. */
    distrust() {
      trusted = false;
      forgetAll();
    },

    size: () => entries.size,
  };
}
