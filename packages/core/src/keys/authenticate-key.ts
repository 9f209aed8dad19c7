import type { AccountTables } from '../accounts/tables.ts';
import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import { accountRateLimit } from '../ratelimit/rate-limits.ts';
import { sha256Hex } from '../shared/crypto.ts';
import { deepFreeze } from '../shared/deep-freeze.ts';
import type { ApiKeyResources, KeyPrincipal } from './key-resources.ts';
import type { KeyTables } from './tables.ts';
import type { WarmKeys } from './warm-keys.ts';

const KEY_PATTERN = /^vrd_[A-Za-z0-9_-]{32}$/;

/**
 * Resolves a presented key: from the cache when it is warm, else in one indexed query. A key revoked,
 * or whose answer changed, on any process is forgotten as that change commits (key-cache.ts).
 */
export const authenticateKey =
  ({ db }: ApiKeyResources, warm: WarmKeys) =>
  async (raw: string): Promise<KeyPrincipal | null> => {
    if (!KEY_PATTERN.test(raw)) return null;
    warm.listen();
    const hash = sha256Hex(raw);
    const known = warm.cache.get(hash);
    if (known) return known;
    const mark = warm.cache.mark();
    const principal = await lookUp(db, hash);
    if (principal) warm.cache.remember(hash, principal.userId, principal, mark);
    return principal;
  };

async function lookUp(db: Database, hash: string): Promise<KeyPrincipal | null> {
  const row = await query<KeyTables & AccountTables>(db.em())
    .selectFrom('api_keys as k')
    .innerJoin('users as u', 'u.id', 'k.user_id')
    .select([
      'k.id as key_id',
      'k.user_id',
      'k.config',
      'u.plan',
      'u.rate_limit_per_minute',
      'u.name',
      'u.email',
    ])
    .select('u.created_at')
    .where('k.key_hash', '=', hash)
    .where('k.revoked_at', 'is', null)
    .executeTakeFirst();
  if (!row) return null;
  // Shared by every request of the key while it is warm: nobody may change it.
  return deepFreeze({
    keyId: row.key_id,
    userId: row.user_id,
    plan: row.plan,
    accountLimit: accountRateLimit(row.plan, row.rate_limit_per_minute),
    config: row.config ?? null,
    profile: {
      id: row.user_id,
      name: row.name,
      email: row.email,
      plan: row.plan,
      createdAt: new Date(row.created_at).toISOString(),
    },
  });
}
