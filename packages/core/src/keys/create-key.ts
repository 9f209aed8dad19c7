import { randomUUID } from 'node:crypto';
import type { ApiKeyConfig, CreatedApiKey } from '@verdict/contracts';
import { User } from '../accounts/user.entity.ts';
import { changesOf } from '../audit/audit-changes.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { randomToken, sha256Hex } from '../shared/crypto.ts';
import { ApiKey } from './api-key.entity.ts';
import { type ApiKeyResources, assertWithinAccountLimit } from './key-resources.ts';
import { auditedKey, normalizeConfig, toDto } from './key-views.ts';

export const KEY_PREFIX = 'vrd_';
/** 24 random bytes: 192 bits, 32 base64url characters after the prefix. */
const KEY_BYTES = 24;

/** A new key of the user's: stored as its hash, its secret answered this once; recorded with it. */
export const createKey =
  ({ db, clock }: ApiKeyResources) =>
  async (userId: string, name: string, config?: ApiKeyConfig | null): Promise<CreatedApiKey> => {
    const raw = `${KEY_PREFIX}${randomToken(KEY_BYTES)}`;
    return db.em().transactional(async (em) => {
      await assertWithinAccountLimit(em, userId, config);
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
      await recordAudit(em, clock, {
        owner: { accountId: userId },
        action: 'api_key.create',
        target: { type: 'api_key', id: key.id },
        changes: changesOf(null, auditedKey(key)),
      });
      return { ...toDto(key), key: raw };
    });
  };
