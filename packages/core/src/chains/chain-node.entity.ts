import { defineEntity, p } from '@mikro-orm/core';
import type { ChainRelationship } from '@verdict/contracts';
import { Debate } from '../debates/debate.entity.ts';
import { DecisionChain } from './decision-chain.entity.ts';

/**
 * A debate's place in a chain: the debate it follows (none for the root) and how. The key makes a debate
 * appear once per chain; since a debate joins only as a new leaf under a node already there, the nodes
 * always form one tree. `parent_debate_id` has no foreign key: when a debate is deleted for good, a trigger
 * of the migration (0013) hangs its children from its own parent, so the tree stays whole.
 */
export const ChainNodeSchema = defineEntity({
  name: 'ChainNode',
  tableName: 'chain_nodes',
  uniques: [{ name: 'chain_nodes_chain_id_position_unique', properties: ['chain', 'position'] }],
  indexes: [
    // The trigger's lookup of a deleted node's children.
    { name: 'chain_nodes_chain_id_parent_debate_id_index', properties: ['chain', 'parentDebateId'] },
  ],
  checks: [
    { name: 'chain_nodes_position_check', expression: 'position >= 0' },
    {
      name: 'chain_nodes_relationship_check',
      expression: `relationship in ('follow_up', 'reversal', 'refinement')`,
    },
  ],
  properties: {
    // Keys that are only foreign keys get `on update cascade` by default; ids never change.
    chain: () => p.manyToOne(DecisionChain).primary().deleteRule('cascade').updateRule('no action'),
    // Indexed for the cascade when a debate is deleted for good.
    debate: () => p.manyToOne(Debate).primary().deleteRule('cascade').updateRule('no action').index(),
    parentDebateId: p.uuid().nullable(),
    relationship: p.string().length(20).$type<ChainRelationship>().nullable(),
    /** Order of addition: 0 for the root, then one more for each debate added (gaps after a deletion). */
    position: p.integer(),
    addedAt: p.datetime().defaultRaw('now()'),
  },
});

export class ChainNode extends ChainNodeSchema.class {}
ChainNodeSchema.setClass(ChainNode);
