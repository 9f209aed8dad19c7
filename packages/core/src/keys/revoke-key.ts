import { recordAudit } from '../audit/record-audit.ts';
import { type ApiKeyResources, ownedActiveKey } from './key-resources.ts';
import type { WarmKeys } from './warm-keys.ts';

/** Revokes one of the user's keys: refused from its next request on. */
export const revokeKey =
  ({ db, clock }: ApiKeyResources, warm: WarmKeys) =>
  async (userId: string, id: string): Promise<void> => {
    await db.em().transactional(async (em) => {
      const key = await ownedActiveKey(em, userId, id);
      key.revokedAt = new Date(clock.now());
      await em.flush();
      await recordAudit(em, clock, {
        owner: { accountId: userId },
        action: 'api_key.revoke',
        target: { type: 'api_key', id },
      });
    });
    // Refused at once on this process (the caller's next request may follow the answer immediately); the
    // notification tells the other processes, within a second.
    warm.cache.forgetUser(userId);
  };
