import { CHAINS_PER_USER_MAX, type Chain, type CreateChainInput } from '@verdict/contracts';
import { assertUnderUserCap } from '../accounts/per-user-cap.ts';
import { queueUserWebhook } from '../outbox/webhook-outbox.ts';
import { notFound } from '../shared/app-error.ts';
import { type ChainResources, chainQuery, readOwnChain } from './chain-resources.ts';
import { toChain } from './chain-views.ts';

/** A new chain of one debate, its root; queues chain.created with it. */
export const createChain =
  ({ db, clock }: ChainResources) =>
  (userId: string, input: CreateChainInput): Promise<Chain> =>
    db.em().transactional(async (em) => {
      // Key-share lock: a permanent deletion of the root waits for this insert instead of failing it.
      const root = await chainQuery(em)
        .selectFrom('debates')
        .select('id')
        .where('id', '=', input.rootDebateId)
        .where('owner_id', '=', userId)
        .where('deleted_at', 'is', null)
        .forKeyShare()
        .executeTakeFirst();
      if (!root) throw notFound('Debate');
      await assertUnderUserCap(em, userId, {
        max: CHAINS_PER_USER_MAX,
        noun: 'chain',
        table: 'decision_chains',
      });
      const at = new Date(clock.now());
      const { id } = await chainQuery(em)
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
      await chainQuery(em)
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
      return toChain(await readOwnChain(em, userId, id));
    });
