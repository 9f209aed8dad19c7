import { defineEntity, p } from '@mikro-orm/core';
import { User } from '../accounts/user.entity.ts';
import { Debate } from '../debates/debate.entity.ts';

/**
 * A user's line of related decisions, grown from one root debate. Its debates: chain_nodes. Deleting the
 * root debate for good deletes the chain (there is nothing left to grow from); a soft deletion keeps it.
 */
export const DecisionChainSchema = defineEntity({
  name: 'DecisionChain',
  tableName: 'decision_chains',
  indexes: [{ name: 'decision_chains_user_created_index', properties: ['user', 'createdAt'] }],
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    name: p.string().length(200),
    // Indexed for the cascade when the debate is deleted for good.
    rootDebate: () => p.manyToOne(Debate).deleteRule('cascade').index(),
    createdAt: p.datetime().defaultRaw('now()'),
    /** Moves with every debate added. */
    updatedAt: p.datetime().defaultRaw('now()'),
  },
});

export class DecisionChain extends DecisionChainSchema.class {}
DecisionChainSchema.setClass(DecisionChain);
