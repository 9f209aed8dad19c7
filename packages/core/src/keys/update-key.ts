import type { ApiKeyConfig, ApiKey as ApiKeyDto } from '@verdict/contracts';
import { changesOf } from '../audit/audit-changes.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { type ApiKeyResources, assertWithinAccountLimit, ownedActiveKey } from './key-resources.ts';
import { auditedKey, normalizeConfig, toDto } from './key-views.ts';
import type { WarmKeys } from './warm-keys.ts';

/** PATCH semantics of the spec: name if given; config, if given, replaces the whole config. */
export const updateKey =
  ({ db, clock }: ApiKeyResources, warm: WarmKeys) =>
  async (
    userId: string,
    id: string,
    patch: { name?: string | undefined; config?: ApiKeyConfig | null | undefined },
  ): Promise<ApiKeyDto> => {
    const updated = await db.em().transactional(async (em) => {
      const key = await ownedActiveKey(em, userId, id);
      await assertWithinAccountLimit(em, userId, patch.config);
      const before = auditedKey(key);
      if (patch.name !== undefined) key.name = patch.name;
      if (patch.config !== undefined) key.config = normalizeConfig(patch.config);
      await em.flush();
      const changes = changesOf(before, auditedKey(key));
      // A patch that leaves the key as it was changed nothing, and records nothing.
      if (Object.keys(changes).length > 0) {
        await recordAudit(em, clock, {
          owner: { accountId: userId },
          action: 'api_key.update',
          target: { type: 'api_key', id },
          changes,
        });
      }
      return toDto(key);
    });
    // This process answers the key's next request as changed, without waiting for the notification.
    warm.cache.forgetUser(userId);
    return updated;
  };
