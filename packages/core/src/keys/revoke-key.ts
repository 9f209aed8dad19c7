import { type ApiKeyResources, ownedActiveKey } from './key-resources.ts';
import type { WarmKeys } from './warm-keys.ts';

/** Revokes one of the user's keys: refused from its next request on. */
export const revokeKey =
  ({ db, clock }: ApiKeyResources, warm: WarmKeys) =>
  async (userId: string, id: string): Promise<void> => {
    const key = await ownedActiveKey(db.em(), userId, id);
    key.revokedAt = new Date(clock.now());
    await db.em().persist(key).flush();
    // Refused at once on this process (the caller's next request may follow the answer immediately); the
    // notification tells the other processes, within a second.
    warm.cache.forgetUser(userId);
  };
