import { randomUUID } from 'node:crypto';
import type {
  ApiKeyConfig,
  ApiKey as ApiKeyDto,
  CreatedApiKey,
  Plan,
  Profile,
  StoredApiKeyConfig,
} from '@verdict/contracts';
import type { AccountTables } from '../accounts/tables.ts';
import { User } from '../accounts/user.entity.ts';
import { query } from '../db/kysely.ts';
import type { StopListening } from '../db/listener.ts';
import type { Database } from '../db/orm.ts';
import { accountRateLimit } from '../ratelimit/rate-limits.ts';
import { AppError, notFound } from '../shared/app-error.ts';
import type { Clock } from '../shared/clock.ts';
import { randomToken, sha256Hex } from '../shared/crypto.ts';
import { deepFreeze } from '../shared/deep-freeze.ts';
import { ApiKey } from './api-key.entity.ts';
import { createKeyCache } from './key-cache.ts';
import type { KeyTables } from './tables.ts';

export const KEY_PREFIX = 'vrd_';
/** 24 random bytes: 192 bits, 32 base64url characters after the prefix. */
const KEY_BYTES = 24;
const KEY_PATTERN = /^vrd_[A-Za-z0-9_-]{32}$/;

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

export type ApiKeys = ReturnType<typeof createApiKeys>;

/** The database notification channel of migration 0028: `<schema> <user id>` of a changed principal. */
const PRINCIPAL_CHANGES = 'key_principal_changes';
/** How long a warm key is kept even if no change is heard: a bound, should a change ever go unheard. */
const KEY_CACHE_TTL_MS = 60_000;
const KEY_CACHE_ENTRIES = 10_000;

export function createApiKeys(db: Database, clock: Clock) {
  const cache = createKeyCache<KeyPrincipal>({
    now: clock.now,
    ttlMs: KEY_CACHE_TTL_MS,
    maxEntries: KEY_CACHE_ENTRIES,
  });
  // Started by the first key presented, so that processes that never authenticate (engine nodes, operator
  // commands) never listen. Until it listens, every key is looked up.
  let listening: Promise<StopListening | null> | null = null;
  const listenForChanges = () =>
    db
      .listen(PRINCIPAL_CHANGES, {
        onNotification: (payload) => {
          const [schema, userId] = payload.split(' ');
          if (schema === db.schema && userId) cache.forgetUser(userId);
        },
        onLost: () => cache.distrust(),
        onListening: () => cache.trust(),
      })
      .catch(() => null); // never listening: no cache, every key looked up as before

  async function ownedActiveKey(userId: string, id: string): Promise<ApiKey> {
    const key = await db.em().findOne(ApiKey, { id, revokedAt: null });
    if (!key) throw notFound('API key');
    if (key.user.id !== userId) throw new AppError('FORBIDDEN', 'This API key belongs to another account');
    return key;
  }

  /** A key's rateLimit can lower its account's limit, never raise it (the account's limit holds anyway). */
  async function assertWithinAccountLimit(userId: string, config: ApiKeyConfig | null | undefined) {
    if (config?.rateLimit == null) return;
    const user = await db.em().findOne(User, { id: userId }, { fields: ['plan', 'rateLimitPerMinute'] });
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

  return {
    create: async (userId: string, name: string, config?: ApiKeyConfig | null): Promise<CreatedApiKey> => {
      await assertWithinAccountLimit(userId, config);
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
    },

    list: async (userId: string): Promise<ApiKeyDto[]> => {
      const keys = await db
        .em()
        .find(ApiKey, { user: userId, revokedAt: null }, { orderBy: { createdAt: 'desc' } });
      return keys.map(toDto);
    },

    /** PATCH semantics of the spec: name if given; config, if given, replaces the whole config. */
    update: async (
      userId: string,
      id: string,
      patch: { name?: string | undefined; config?: ApiKeyConfig | null | undefined },
    ): Promise<ApiKeyDto> => {
      const key = await ownedActiveKey(userId, id);
      await assertWithinAccountLimit(userId, patch.config);
      if (patch.name !== undefined) key.name = patch.name;
      if (patch.config !== undefined) key.config = normalizeConfig(patch.config);
      await db.em().persist(key).flush();
      // This process answers the key's next request as changed, without waiting for the notification.
      cache.forgetUser(userId);
      return toDto(key);
    },

    revoke: async (userId: string, id: string): Promise<void> => {
      const key = await ownedActiveKey(userId, id);
      key.revokedAt = new Date(clock.now());
      await db.em().persist(key).flush();
      // Refused at once on this process (the caller's next request may follow the answer immediately); the
      // notification tells the other processes, within a second.
      cache.forgetUser(userId);
    },

    /**
     * Resolves a presented key: from the cache when it is warm, else in one indexed query. A key revoked,
     * or whose answer changed, on any process is forgotten as that change commits (key-cache.ts).
     */
    authenticate: async (raw: string): Promise<KeyPrincipal | null> => {
      if (!KEY_PATTERN.test(raw)) return null;
      listening ??= listenForChanges();
      const hash = sha256Hex(raw);
      const warm = cache.get(hash);
      if (warm) return warm;
      const mark = cache.mark();
      const principal = await lookUp(hash);
      if (principal) cache.remember(hash, principal.userId, principal, mark);
      return principal;
    },

    /** Stops hearing of changes (the process is closing). */
    close: async () => {
      const stop = await listening;
      cache.distrust();
      await stop?.();
    },
  };

  async function lookUp(hash: string): Promise<KeyPrincipal | null> {
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
}

function normalizeConfig(config: ApiKeyConfig | null | undefined): StoredApiKeyConfig | null {
  if (!config) return null;
  return {
    preset: config.preset ?? null,
    routingOverrides: config.routingOverrides ?? null,
    allowedProviders: config.allowedProviders ?? null,
    rateLimit: config.rateLimit ?? null,
    description: config.description ?? null,
  };
}

function toDto(key: ApiKey): ApiKeyDto {
  return {
    id: key.id,
    name: key.name,
    keyPrefix: key.keyPrefix,
    config: key.config ?? null,
    createdAt: key.createdAt.toISOString(),
  };
}
