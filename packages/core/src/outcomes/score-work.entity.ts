import { defineEntity, p } from '@mikro-orm/core';
import { User } from '../accounts/user.entity.ts';

/**
 * A user whose score is out of date: the score worker's own progress, one row per change to their outcomes
 * (a debate completed, an outcome told or corrected), written in that change's transaction and deleted in
 * the transaction that refreshes the score. One row per change, not per user: a change committed while a
 * refresh runs has its own row, so the refresh that follows sees it.
 */
export const ScoreWorkSchema = defineEntity({
  name: 'ScoreWork',
  tableName: 'score_queue',
  indexes: [{ name: 'score_queue_created_index', properties: ['createdAt'] }],
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});

export class ScoreWork extends ScoreWorkSchema.class {}
ScoreWorkSchema.setClass(ScoreWork);
