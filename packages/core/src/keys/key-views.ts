import type { ApiKeyConfig, ApiKey as ApiKeyDto, StoredApiKeyConfig } from '@verdict/contracts';
import type { ApiKey } from './api-key.entity.ts';

/** A key's config as stored: every field present, null when not given. */
export function normalizeConfig(config: ApiKeyConfig | null | undefined): StoredApiKeyConfig | null {
  if (!config) return null;
  return {
    preset: config.preset ?? null,
    routingOverrides: config.routingOverrides ?? null,
    allowedProviders: config.allowedProviders ?? null,
    rateLimit: config.rateLimit ?? null,
    description: config.description ?? null,
  };
}

/** A key as its owner sees it: never its secret, which is said once, at creation. */
export function toDto(key: ApiKey): ApiKeyDto {
  return {
    id: key.id,
    name: key.name,
    keyPrefix: key.keyPrefix,
    config: key.config ?? null,
    createdAt: key.createdAt.toISOString(),
  };
}

/** What the audit trail shows of a key: what its owner named and configured, never its secret or hash. */
export const auditedKey = (key: ApiKey) => ({ name: key.name, config: key.config ?? null });
