import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import type { FundingSource } from '@verdict/contracts';
import { query } from '../../db/kysely.ts';
import { AppError } from '../../shared/app-error.ts';
import type { DebateTables } from '../tables.ts';
import type { DebateRequest } from './request.ts';

/**
 * The Idempotency-Key of a create, the one writer of `idempotency_keys`: a key names the first debate its
 * request made, for IDEMPOTENCY_WINDOW_MS; the same key with the same request answers that debate again, with
 * another request 409.
 */
const IDEMPOTENCY_WINDOW_MS = 24 * 3_600_000;

/** What identifies a request for its key: the hash of its fingerprint. */
export const requestHashOf = (request: DebateRequest) =>
  createHash('sha256').update(JSON.stringify(request.fingerprint)).digest('hex');

const keyOf = (request: DebateRequest, idempotencyKey: string) => ({
  owner_id: request.ownerId,
  route: request.route,
  key: idempotencyKey,
});

/** An Idempotency-Key seen within its window: the first debate again, or 409 for another body. */
export async function replayed(
  em: EntityManager,
  request: DebateRequest,
  requestHash: string,
  now: Date,
): Promise<{ debateId: string; fundingSource: FundingSource } | null> {
  if (!request.idempotencyKey) return null;
  const db = query<DebateTables>(em);
  const key = keyOf(request, request.idempotencyKey);
  const previous = await db
    .selectFrom('idempotency_keys')
    .select(['request_hash', 'debate_id', 'created_at'])
    .where('owner_id', '=', key.owner_id)
    .where('route', '=', key.route)
    .where('key', '=', key.key)
    .executeTakeFirst();
  if (!previous) return null;
  if (now.getTime() - new Date(previous.created_at).getTime() >= IDEMPOTENCY_WINDOW_MS) {
    await db
      .deleteFrom('idempotency_keys')
      .where('owner_id', '=', key.owner_id)
      .where('route', '=', key.route)
      .where('key', '=', key.key)
      .execute();
    return null;
  }
  if (previous.request_hash !== requestHash) {
    throw new AppError('CONFLICT', 'This Idempotency-Key was used with a different request');
  }
  const first = await db
    .selectFrom('debates')
    .select('funding_source')
    .where('id', '=', previous.debate_id)
    .executeTakeFirst();
  return {
    debateId: previous.debate_id,
    fundingSource: first?.funding_source ?? ('user_credits' as const),
  };
}

/** Records the request's key (if it sent one) as naming `debateId`. */
export async function rememberKey(
  em: EntityManager,
  request: DebateRequest,
  requestHash: string,
  debateId: string,
  now: Date,
): Promise<void> {
  if (!request.idempotencyKey) return;
  await query<DebateTables>(em)
    .insertInto('idempotency_keys')
    .values({
      ...keyOf(request, request.idempotencyKey),
      request_hash: requestHash,
      debate_id: debateId,
      created_at: now,
    })
    .execute();
}

/** The keys naming a debate that is going away for good. */
export async function forgetIdempotencyKeys(
  em: EntityManager,
  debate: { debateId: string; ownerId: string },
): Promise<void> {
  await query<DebateTables>(em)
    .deleteFrom('idempotency_keys')
    .where('debate_id', '=', debate.debateId)
    .where('owner_id', '=', debate.ownerId)
    .execute();
}
