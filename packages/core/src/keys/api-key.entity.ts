import { defineEntity, p } from '@mikro-orm/core';
import type { StoredApiKeyConfig } from '@verdict/contracts';
import { User } from '../accounts/user.entity.ts';

export const ApiKeySchema = defineEntity({
  name: 'ApiKey',
  tableName: 'api_keys',
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    user: () => p.manyToOne(User).deleteRule('cascade').index(),
    name: p.string().length(100),
    keyPrefix: p.string().length(16),
    /** SHA-256 of the full key. Keys carry 192 random bits, so a fast hash is enough (no dictionary). */
    keyHash: p.string().length(64).unique(),
    config: p.json<StoredApiKeyConfig>().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
    revokedAt: p.datetime().nullable(),
  },
});

export class ApiKey extends ApiKeySchema.class {}
ApiKeySchema.setClass(ApiKey);
