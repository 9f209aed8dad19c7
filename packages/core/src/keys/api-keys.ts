import { authenticateKey } from './authenticate-key.ts';
import { createKey } from './create-key.ts';
import type { ApiKeyResources } from './key-resources.ts';
import { listKeys } from './list-keys.ts';
import { revokeKey } from './revoke-key.ts';
import { updateKey } from './update-key.ts';
import { warmKeys } from './warm-keys.ts';

export { KEY_PREFIX } from './create-key.ts';
export type { ApiKeyResources, KeyPrincipal } from './key-resources.ts';

export type ApiKeys = ReturnType<typeof createApiKeys>;

/**
 * A user's API keys: created (the secret said once), listed, changed and revoked by their owner only, and
 * resolved to their caller on each request, from this process's warm keys when it can (warm-keys.ts). One
 * operation a file, over the resources given here and the warm keys they share.
 */
export function createApiKeys(resources: ApiKeyResources) {
  const warm = warmKeys(resources);
  return {
    create: createKey(resources),
    list: listKeys(resources),
    update: updateKey(resources, warm),
    revoke: revokeKey(resources, warm),
    authenticate: authenticateKey(resources, warm),
    close: warm.close,
  };
}
