import type { EntityManager } from '@mikro-orm/core';
import type { CollectionResources } from './collection-resources.ts';
import { itemQuery, renumber, touch } from './item-positions.ts';

/**
 * Takes debates being deleted for good out of every collection that holds them, closing the gaps, in the
 * deleting transaction (`em`), which must already hold the debates' rows locked FOR UPDATE: no append of
 * them can then start (an append key-shares the debate before it locks the collection), and the
 * collections are locked after the debates, in id order, as appends lock them. The cascade of the debates'
 * deletion then finds nothing left to remove.
 */
export const dropDebates =
  ({ clock }: CollectionResources) =>
  async (em: EntityManager, debateIds: string[]): Promise<void> => {
    if (debateIds.length === 0) return;
    const holding = await itemQuery(em)
      .selectFrom('collections')
      .select('id')
      .where('id', 'in', (eb) =>
        eb.selectFrom('collection_items').select('collection_id').where('debate_id', 'in', debateIds),
      )
      .orderBy('id')
      .forUpdate()
      .execute();
    if (holding.length === 0) return;
    await itemQuery(em).deleteFrom('collection_items').where('debate_id', 'in', debateIds).execute();
    for (const { id } of holding) {
      await renumber(em, id);
      await touch(em, clock, id);
    }
  };
