import { defineEntity, p } from '@mikro-orm/core';
import { Debate } from '../debates/debate.entity.ts';

/**
 * A completed debate waiting for its embedding: the embedding worker's own progress, written in the
 * transaction that completes the debate and deleted once the worker is done with it (embedded, given up on,
 * or its debate gone). `dueAt` is when the worker may claim it (again): the end of a claim, or of the
 * back-off after a failed call.
 */
export const EmbeddingWorkSchema = defineEntity({
  name: 'EmbeddingWork',
  tableName: 'embedding_queue',
  indexes: [{ name: 'embedding_queue_created_index', properties: ['createdAt'] }],
  properties: {
    // A key that is only a foreign key gets `on update cascade` by default; ids never change.
    debate: () => p.manyToOne(Debate).primary().deleteRule('cascade').updateRule('no action'),
    createdAt: p.datetime().defaultRaw('now()'),
    dueAt: p.datetime().nullable(),
    /** Embedding calls made for this debate, the one in progress included. */
    attempts: p.smallint().default(0),
  },
});

export class EmbeddingWork extends EmbeddingWorkSchema.class {}
EmbeddingWorkSchema.setClass(EmbeddingWork);
