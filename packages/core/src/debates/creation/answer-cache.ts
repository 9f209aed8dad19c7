import type { EntityManager } from '@mikro-orm/core';
import type { DebateMode } from '@verdict/contracts';
import { sql } from 'kysely';
import { query } from '../../db/kysely.ts';
import type { DebateTables } from '../tables.ts';
import type { DebateRequest, Panel } from './request.ts';
import type { CreationResources } from './resources.ts';

/**
 * An identical completed debate of the same owner within DEBATE_CACHE_HOURS, if caching applies: it answers
 * the request instead of a new debate (no charge). Never for BYOK requests or when the caller skips it.
 */
export async function cachedAnswer(
  { config }: CreationResources,
  em: EntityManager,
  request: DebateRequest & { mode: DebateMode },
  panel: Panel,
  now: Date,
) {
  if (request.skipCache || config.debates.cacheTtlMs <= 0 || request.providerKeys) return null;
  return (
    (await query<DebateTables>(em)
      .selectFrom('debates')
      .select(['id', 'funding_source'])
      .where('owner_id', '=', request.ownerId)
      .where('question', '=', request.question)
      .where('mode', '=', request.mode)
      .where(sql<boolean>`context is not distinct from ${request.context}`)
      .where('requested_agents', '=', panel.agents)
      .where('requested_rounds', '=', panel.rounds)
      .where(sql<boolean>`preset is not distinct from ${request.preset}`)
      // A debate that may stop early is not the debate of every round, nor the reverse.
      .where(sql<boolean>`early_stop_threshold is not distinct from ${request.earlyStop?.threshold ?? null}`)
      // Only from the same place: a personal answer must not stand in for a workspace's, nor the reverse.
      .where(sql<boolean>`workspace_id is not distinct from ${request.workspaceId ?? null}`)
      .where('status', '=', 'completed')
      .where('deleted_at', 'is', null)
      .where('completed_at', '>', new Date(now.getTime() - config.debates.cacheTtlMs).toISOString())
      .orderBy('completed_at', 'desc')
      .limit(1)
      .executeTakeFirst()) ?? null
  );
}
