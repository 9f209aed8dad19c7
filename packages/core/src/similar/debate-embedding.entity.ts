import { defineEntity, p } from '@mikro-orm/core';
import { User } from '../accounts/user.entity.ts';
import { Debate } from '../debates/debate.entity.ts';

/**
 * A completed debate's embedding, unit length, as `real[]` (cosine = dot product, computed in SQL): works on
 * every PostgreSQL and on PGlite without an extension. `model` keeps vectors of different models apart.
 */
export const DebateEmbeddingSchema = defineEntity({
  name: 'DebateEmbedding',
  tableName: 'debate_embeddings',
  indexes: [{ name: 'debate_embeddings_owner_model_index', properties: ['owner', 'model'] }],
  properties: {
    // A key that is only a foreign key gets `on update cascade` by default; ids never change.
    debate: () => p.manyToOne(Debate).primary().deleteRule('cascade').updateRule('no action'),
    owner: () => p.manyToOne(User).deleteRule('cascade'),
    model: p.string().length(200),
    embedding: p.array<number>().columnType('real[]'),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});

export class DebateEmbedding extends DebateEmbeddingSchema.class {}
DebateEmbeddingSchema.setClass(DebateEmbedding);
