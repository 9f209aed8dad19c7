import type { ApiKey as ApiKeyDto } from '@verdict/contracts';
import { ApiKey } from './api-key.entity.ts';
import type { ApiKeyResources } from './key-resources.ts';
import { toDto } from './key-views.ts';

/** The user's keys not revoked, newest first. */
export const listKeys =
  ({ db }: ApiKeyResources) =>
  async (userId: string): Promise<ApiKeyDto[]> => {
    const keys = await db
      .em()
      .find(ApiKey, { user: userId, revokedAt: null }, { orderBy: { createdAt: 'desc' } });
    return keys.map(toDto);
  };
