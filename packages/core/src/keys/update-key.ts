import type { ApiKeyConfig, ApiKey as ApiKeyDto } from '@verdict/contracts';
import { type ApiKeyResources, assertWithinAccountLimit, ownedActiveKey } from './key-resources.ts';
import { normalizeConfig, toDto } from './key-views.ts';
import type { WarmKeys } from './warm-keys.ts';

/** PATCH semantics of the spec: name if given; config, if given, replaces the whole config. */
export const updateKey =
  ({ db }: ApiKeyResources, warm: WarmKeys) =>
  async (
    userId: string,
    id: string,
    patch: { name?: string | undefined; config?: ApiKeyConfig | null | undefined },
  ): Promise<ApiKeyDto> => {
    const key = await ownedActiveKey(db.em(), userId, id);
    await assertWithinAccountLimit(db, userId, patch.config);
    if (patch.name !== undefined) key.name = patch.name;
    if (patch.config !== undefined) key.config = normalizeConfig(patch.config);
    await db.em().persist(key).flush();
    // This process answers the key's next request as changed, without waiting for the notification.
    warm.cache.forgetUser(userId);
    return toDto(key);
  };
