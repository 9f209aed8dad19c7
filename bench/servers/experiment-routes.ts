/**
 * Experiment routes on plain Fastify (no tRPC, no trpc-to-openapi), each doing what GET /v1/me does with
 * one piece changed, to price that piece. Not part of the API; registered only by bench/servers/api-server.ts.
 */
import { createHash } from 'node:crypto';
import type { Core } from '@verdict/core';
import type { FastifyInstance } from 'fastify';

type OneQueryRow = {
  user_id: string;
  name: string;
  email: string;
  plan: string;
  created_at: string | Date;
  config: unknown;
  count: number | string | null;
};
const ONE_QUERY_SQL = `with k as (
    select k.id as key_id, k.config, u.id as user_id, u.name, u.email, u.plan, u.created_at
      from api_keys k join users u on u.id = k.user_id
     where k.key_hash = ? and k.revoked_at is null
  ), c as (
    insert into rate_limit_counters (bucket, window_start, count, expires_at)
    select 'key:' || k.key_id, ?, 1, now() + (?::int * interval '1 millisecond') from k
    on conflict (bucket, window_start) do update set count = rate_limit_counters.count + 1
    returning count
  )
  select k.*, (select count from c) as count from k`;
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

export function registerExperimentRoutes(app: FastifyInstance, core: Core): void {
  app.get('/bench/direct-me', async (request, reply) => {
    const raw = request.headers.authorization?.slice('Bearer '.length) ?? '';
    const principal = await core.apiKeys.authenticate(raw);
    if (!principal) return reply.code(401).send({ error: { code: 'UNAUTHORIZED' } });
    const decision = await core.rateLimits.hitRequest({
      userId: principal.userId,
      accountLimit: principal.accountLimit,
      keyId: principal.keyId,
      keyLimit: principal.config?.rateLimit,
    });
    if (!decision.allowed) return reply.code(429).send({ error: { code: 'RATE_LIMITED' } });
    return core.accounts.profile(principal.userId);
  });

  app.get('/bench/raw-me', async (request, reply) => {
    const raw = request.headers.authorization?.slice('Bearer '.length) ?? '';
    const principal = await core.apiKeys.authenticate(raw);
    if (!principal) return reply.code(401).send({ error: { code: 'UNAUTHORIZED' } });
    const decision = await core.rateLimits.hitRequest({
      userId: principal.userId,
      accountLimit: principal.accountLimit,
      keyId: principal.keyId,
      keyLimit: principal.config?.rateLimit,
    });
    if (!decision.allowed) return reply.code(429).send({ error: { code: 'RATE_LIMITED' } });
    const [user] = await core.db.execute<{
      id: string;
      name: string;
      email: string;
      plan: string;
      created_at: Date;
    }>('select id, name, email, plan, created_at from users where id = ?', [principal.userId]);
    if (!user) return reply.code(404).send({ error: { code: 'USER_NOT_FOUND' } });
    const { created_at, ...rest } = user;
    return { ...rest, createdAt: new Date(created_at).toISOString() };
  });

  app.get('/bench/one-query-me', async (request, reply) => {
    const raw = request.headers.authorization?.slice('Bearer '.length) ?? '';
    const window = Math.floor(Date.now() / 60_000);
    const [row] = await core.db.execute<OneQueryRow>(ONE_QUERY_SQL, [sha256(raw), window, 120_000]);
    if (!row) return reply.code(401).send({ error: { code: 'UNAUTHORIZED' } });
    const limit = (row.config as { rateLimit?: number } | null)?.rateLimit ?? 60;
    if (Number(row.count) > limit) return reply.code(429).send({ error: { code: 'RATE_LIMITED' } });
    return {
      id: row.user_id,
      name: row.name,
      email: row.email,
      plan: row.plan,
      createdAt: new Date(row.created_at).toISOString(),
    };
  });
}
