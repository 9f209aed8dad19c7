import { defineEntity, p } from '@mikro-orm/core';
import { User } from '../accounts/user.entity.ts';
import { Poll } from './poll.entity.ts';

/** A reader's choice in a poll: one per reader (the key), changed in place when they vote again. */
export const PollVoteSchema = defineEntity({
  name: 'PollVote',
  tableName: 'poll_votes',
  properties: {
    // Keys that are only foreign keys get `on update cascade` by default; ids never change.
    poll: () => p.manyToOne(Poll).primary().deleteRule('cascade').updateRule('no action'),
    // Indexed for the cascade when an account is deleted.
    user: () => p.manyToOne(User).primary().deleteRule('cascade').updateRule('no action').index(),
    optionId: p.uuid(),
    createdAt: p.datetime().defaultRaw('now()'),
    updatedAt: p.datetime().defaultRaw('now()'),
  },
});

export class PollVote extends PollVoteSchema.class {}
PollVoteSchema.setClass(PollVote);
