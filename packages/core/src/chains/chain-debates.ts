import type { EntityManager } from '@mikro-orm/core';
import {
  type AddChainDebateInput,
  CHAIN_DEBATES_MAX,
  type ChainWithNodes,
  type ValidationIssue,
} from '@verdict/contracts';
import { query } from '../db/kysely.ts';
import type { DebateTables } from '../debates/tables.ts';
import { queueUserWebhook } from '../outbox/webhook-outbox.ts';
import { AppError, notFound } from '../shared/app-error.ts';
import type { ChainResources } from './chain-resources.ts';
import { findOwnChain, readStoredNodes, type StoredNode, toChain, toChainNodes } from './chain-views.ts';
import type { ChainTables } from './tables.ts';

type Tables = ChainTables & DebateTables;

/**
 * The caller's chain, its row locked until `em`'s transaction ends: every addition goes through here
 * first, so two additions to one chain run one after another and the second sees the first (no debate
 * twice, no cycle, no position taken twice). Someone else's chain is NOT_FOUND, like a missing one.
 */
export async function lockOwnChain(em: EntityManager, userId: string, chainId: string) {
  const row = await query<Tables>(em)
    .selectFrom('decision_chains')
    .select(['id', 'name'])
    .where('id', '=', chainId)
    .where('user_id', '=', userId)
    .forUpdate()
    .executeTakeFirst();
  if (!row) throw notFound('Chain');
  return row;
}

/**
 * Why `debateId`, already in the chain, cannot be added under `parentDebateId`: it would follow itself or
 * one of its own descendants (a cycle), or it is simply there already. A debate appears once per chain.
 */
function alreadyInChain(nodes: StoredNode[], debateId: string, parentDebateId: string): ValidationIssue {
  const parentOf = new Map(nodes.map((node) => [node.debateId, node.parentDebateId]));
  for (let at: string | null = parentDebateId; at !== null; at = parentOf.get(at) ?? null) {
    if (at === debateId) {
      return {
        path: 'parentDebateId',
        message: 'The debate would follow itself or one of the debates that follow it: a cycle',
        code: 'cycle',
      };
    }
  }
  return { path: 'debateId', message: 'This debate is already in the chain', code: 'already_in_chain' };
}

/** Adding debates to the caller's chains: each one a new leaf under a debate already there. */
export function createChainDebates({ db, clock }: ChainResources) {
  const k = (em: EntityManager) => query<Tables>(em);

  return {
    /**
     * Adds one of the caller's debates under a debate of the chain. Another user's debate, or a missing or
     * soft-deleted one, is NOT_FOUND, as is a parent not in the chain (or deleted since); a debate already
     * in the chain, a cycle, or a full chain is a VALIDATION_ERROR naming the field. Queues chain.updated
     * with the change. Answers the whole chain as it now is.
     */
    addDebate: (userId: string, input: AddChainDebateInput): Promise<ChainWithNodes> =>
      db.em().transactional(async (em) => {
        const chain = await lockOwnChain(em, userId, input.id);
        // Key-share lock: a permanent deletion of the debate waits for this insert instead of failing it.
        const debate = await k(em)
          .selectFrom('debates')
          .select('id')
          .where('id', '=', input.debateId)
          .where('owner_id', '=', userId)
          .where('deleted_at', 'is', null)
          .forKeyShare()
          .executeTakeFirst();
        if (!debate) throw notFound('Debate');
        const nodes = await readStoredNodes(em, input.id);
        const parent = nodes.find((node) => node.debateId === input.parentDebateId);
        if (!parent || parent.deleted) throw notFound('Parent debate in this chain');
        if (nodes.some((node) => node.debateId === input.debateId)) {
          const issue = alreadyInChain(nodes, input.debateId, input.parentDebateId);
          throw new AppError('VALIDATION_ERROR', issue.message, { details: [issue] });
        }
        if (nodes.length >= CHAIN_DEBATES_MAX) {
          throw new AppError('VALIDATION_ERROR', `A chain holds at most ${CHAIN_DEBATES_MAX} debates`, {
            details: [{ path: 'debateId', message: 'The chain is full', code: 'too_big' }],
          });
        }
        const at = new Date(clock.now());
        const { next } = await k(em)
          .selectFrom('chain_nodes')
          .select((eb) => eb.fn.coalesce(eb(eb.fn.max('position'), '+', 1), eb.lit(0)).as('next'))
          .where('chain_id', '=', input.id)
          .executeTakeFirstOrThrow();
        await k(em)
          .insertInto('chain_nodes')
          .values({
            chain_id: input.id,
            debate_id: input.debateId,
            parent_debate_id: input.parentDebateId,
            relationship: input.relationship,
            position: Number(next),
            added_at: at,
          })
          .execute();
        await k(em)
          .updateTable('decision_chains')
          .set({ updated_at: at })
          .where('id', '=', input.id)
          .execute();
        await queueUserWebhook(em, {
          userId,
          event: 'chain.updated',
          // A debate joins a chain once: the pair names the occurrence.
          dedupeKey: `chain.updated:${input.id}:${input.debateId}`,
          debateId: input.debateId,
          payload: {
            chainId: input.id,
            name: chain.name,
            debateId: input.debateId,
            parentDebateId: input.parentDebateId,
            relationship: input.relationship,
          },
        });
        const row = await findOwnChain(em, userId, input.id);
        if (!row) throw notFound('Chain');
        return { ...toChain(row), nodes: toChainNodes(await readStoredNodes(em, input.id)) };
      }),
  };
}
