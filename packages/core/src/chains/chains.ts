import type { EntityManager } from '@mikro-orm/core';
import {
  CHAINS_PER_USER_MAX,
  type Chain,
  type ChainContext,
  type ChainList,
  type ChainWithNodes,
  type CreateChainInput,
} from '@verdict/contracts';
import { sql } from 'kysely';
import { assertUnderUserCap } from '../accounts/per-user-cap.ts';
import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import type { DebateTables } from '../debates/tables.ts';
import { queueUserWebhook } from '../outbox/webhook-outbox.ts';
import { notFound } from '../shared/app-error.ts';
import type { Clock } from '../shared/clock.ts';
import { chainContext } from './chain-context.ts';
import { createChainDebates, lockOwnChain } from './chain-debates.ts';
import { chainColumns, findOwnChain, readStoredNodes, toChain, toChainNodes } from './chain-views.ts';
import type { ChainTables } from './tables.ts';

type Tables = ChainTables & DebateTables;

/**
 * Decision chains: trees of a user's related debates, grown from a root debate by adding debates that
 * follow up on, reverse or refine one already there. Only the owner sees or changes a chain: anyone
 * else's is NOT_FOUND on every route. Deleting a chain keeps its debates.
 */
export function createChains(db: Database, clock: Clock) {
  const k = (em: EntityManager = db.em()) => query<Tables>(em);

  const assertRoomForAnother = (em: EntityManager, userId: string) =>
    assertUnderUserCap(em, userId, {
      max: CHAINS_PER_USER_MAX,
      noun: 'chain',
      count: async () =>
        (
          await k(em)
            .selectFrom('decision_chains')
            .select(sql<number>`count(*)::int`.as('n'))
            .where('user_id', '=', userId)
            .executeTakeFirstOrThrow()
        ).n,
    });

  const readChain = async (userId: string, chainId: string) => {
    const row = await findOwnChain(db.em(), userId, chainId);
    if (!row) throw notFound('Chain');
    return row;
  };

  return {
    /** A new chain of one debate, its root; queues chain.created with it. */
    create: (userId: string, input: CreateChainInput): Promise<Chain> =>
      db.em().transactional(async (em) => {
        // Key-share lock: a permanent deletion of the root waits for this insert instead of failing it.
        const root = await k(em)
          .selectFrom('debates')
          .select('id')
          .where('id', '=', input.rootDebateId)
          .where('owner_id', '=', userId)
          .where('deleted_at', 'is', null)
          .forKeyShare()
          .executeTakeFirst();
        if (!root) throw notFound('Debate');
        await assertRoomForAnother(em, userId);
        const at = new Date(clock.now());
        const { id } = await k(em)
          .insertInto('decision_chains')
          .values({
            user_id: userId,
            name: input.name,
            root_debate_id: input.rootDebateId,
            created_at: at,
            updated_at: at,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await k(em)
          .insertInto('chain_nodes')
          .values({ chain_id: id, debate_id: input.rootDebateId, position: 0, added_at: at })
          .execute();
        await queueUserWebhook(em, {
          userId,
          event: 'chain.created',
          dedupeKey: `chain.created:${id}`,
          debateId: input.rootDebateId,
          payload: { chainId: id, name: input.name, rootDebateId: input.rootDebateId },
        });
        const row = await findOwnChain(em, userId, id);
        if (!row) throw notFound('Chain');
        return toChain(row);
      }),

    /** The caller's chains, newest first, without their nodes (at most CHAINS_PER_USER_MAX). */
    list: async (userId: string): Promise<ChainList> => {
      const rows = await k()
        .selectFrom('decision_chains')
        .select(chainColumns)
        .where('decision_chains.user_id', '=', userId)
        .orderBy('decision_chains.created_at', 'desc')
        .orderBy('decision_chains.id', 'desc')
        .execute();
      return { chains: rows.map(toChain) };
    },

    /** The caller's chain with its nodes, in the order they were added. */
    get: async (userId: string, chainId: string): Promise<ChainWithNodes> => {
      const row = await readChain(userId, chainId);
      return { ...toChain(row), nodes: toChainNodes(await readStoredNodes(db.em(), chainId)) };
    },

    /** The chain summed up to pass as the `context` of the next debate (chain-context.ts). */
    context: async (userId: string, chainId: string): Promise<ChainContext> => {
      const row = await readChain(userId, chainId);
      return { chainId, ...chainContext(row.name, await readStoredNodes(db.em(), chainId)) };
    },

    /** Deletes the chain and its nodes (the foreign key cascades); the debates stay. */
    remove: (userId: string, chainId: string): Promise<void> =>
      db.em().transactional(async (em) => {
        await lockOwnChain(em, userId, chainId);
        await k(em).deleteFrom('decision_chains').where('id', '=', chainId).execute();
      }),

    ...createChainDebates(db, clock),
  };
}

export type Chains = ReturnType<typeof createChains>;
