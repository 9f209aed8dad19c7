import { defineEntity, p } from '@mikro-orm/core';
import { User } from '../accounts/user.entity.ts';
import { Debate } from '../debates/debate.entity.ts';

/** A reader's comment on a debate: plain text, shown as text, never as HTML. */
export const CommentSchema = defineEntity({
  name: 'Comment',
  tableName: 'comments',
  indexes: [{ name: 'comments_debate_created_index', properties: ['debate', 'createdAt'] }],
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    debate: () => p.manyToOne(Debate).deleteRule('cascade'),
    author: () => p.manyToOne(User).deleteRule('cascade').index(),
    content: p.text(),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});

export class Comment extends CommentSchema.class {}
CommentSchema.setClass(Comment);
