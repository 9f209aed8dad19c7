import { type EntityManager, LockMode } from '@mikro-orm/core';
import type { ApiKeyConfig, Plan, Profile, StoredApiKeyConfig } from '@verdict/contracts';
import { User } from '../accounts/user.entity.ts';
import { accountRateLimit } from '../ratelimit/rate-limits.ts';
import type { CoreResources } from '../resources.ts';
import { AppError, notFound } from '../shared/app-error.ts';
import { ApiKey } from './api-key.entity.ts';

/** What the API keys' operations use of core's resources. */
export type ApiKeyResources = Pick<CoreResources, 'db' | 'clock'>;

/** What a request authenticated by a key knows about its caller. */
export type KeyPrincipal = {
  keyId: string;
  userId: string;
  plan: Plan;
  /** The account's per-minute request limit, which every key and session of the account shares. */
  accountLimit: number;
  config: StoredApiKeyConfig | null;
  /** The owner's profile, read in the same query: /v1/me needs no further round trip. */
  profile: Profile;
};

/**
 * The caller's key, not revoked: a missing one is NOT_FOUND, another account's FORBIDDEN. `em` in a
 * transaction locks it until that ends, so the change recorded of it starts from what it really was.
 */
export async function ownedActiveKey(em: EntityManager, userId: string, id: string): Promise<ApiKey> {
  const lockMode = em.isInTransaction() ? LockMode.PESSIMISTIC_WRITE : undefined;
  const key = await em.findOne(ApiKey, { id, revokedAt: null }, lockMode ? { lockMode } : {});
  if (!key) throw notFound('API key');
  if (key.user.id !== userId) throw new AppError('FORBIDDEN', 'This API key belongs to another account');
  return key;
}

/** A key's rateLimit can lower its account's limit, never raise it (the account's limit holds anyway). */
export async function assertWithinAccountLimit(
  em: EntityManager,
  userId: string,
  config: ApiKeyConfig | null | undefined,
) {
  if (config?.rateLimit == null) return;
  const user = await em.findOne(User, { id: userId }, { fields: ['plan', 'rateLimitPerMinute'] });
  if (!user) throw new AppError('USER_NOT_FOUND', 'User not found');
  const limit = accountRateLimit(user.plan, user.rateLimitPerMinute);
  if (config.rateLimit > limit) {
    throw new AppError('VALIDATION_ERROR', 'Request validation failed', {
      details: [
        {
          path: 'config.rateLimit',
          message: `At most ${limit} per minute, this account's limit: a key can lower it, not raise it`,
          code: 'too_big',
        },
      ],
    });
  }
}
