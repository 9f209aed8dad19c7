import { randomUUID } from 'node:crypto';
import type { ApiKeyConfig, CreatedApiKey } from '@verdict/contracts';
import { User } from '../accounts/user.entity.ts';
import { randomToken, sha256Hex } from '../shared/crypto.ts';
import { ApiKey } from './api-key.entity.ts';
import { type ApiKeyResources, assertWithinAccountLimit } from './key-resources.ts';
import { normalizeConfig, toDto } from './key-views.ts';

export const KEY_PREFIX = 'vrd_';
/** 24 random bytes: 192 bits, 32 base64url characters after the prefix. */
const KEY_BYTES = 24;

/** A new key of the user's: stored as its hash, its secret answered this once. */
export const createKey =
  ({ db, clock }: ApiKeyResources) =>
  async (userId: string, name: string, config?: ApiKeyConfig | null): Promise<CreatedApiKey> => {
    await assertWithinAccountLimit(db, userId, config);
    const em = db.em();
    const raw = `${KEY_PREFIX}${randomToken(KEY_BYTES)}`;
    const key = em.create(ApiKey, {
      id: randomUUID(),
      user: em.getReference(User, userId),
      name,
      keyPrefix: raw.slice(0, 16),
      keyHash: sha256Hex(raw),
      config: normalizeConfig(config),
      createdAt: new Date(clock.now()),
      revokedAt: null,
    });
    await em.flush();
    return { ...toDto(key), key: raw };
  };
