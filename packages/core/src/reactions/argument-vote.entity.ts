import { defineEntity, p } from '@mikro-orm/core';
import type { StoredArgumentVote } from '@verdict/contracts';
import { User } from '../accounts/user.entity.ts';
import { Debate } from '../debates/debate.entity.ts';

/**
 * One reader's agree or disagree on one agent message (claim) of a debate. "neutral" is never stored: it
 * removes the row. The key makes a second vote of the same reader on the same claim an update.
 */
export const ArgumentVoteSchema = defineEntity({
  name: 'ArgumentVote',
  tableName: 'argument_votes',
  checks: [{ name: 'argument_votes_vote_check', expression: `vote in ('agree', 'disagree')` }],
  properties: {
    // Keys that are only foreign keys get `on update cascade` by default; ids never change.
    debate: () => p.manyToOne(Debate).primary().deleteRule('cascade').updateRule('no action'),
    claimId: p.string().length(120).primary(),
    // Indexed for the cascade when an account is deleted.
    user: () => p.manyToOne(User).primary().deleteRule('cascade').updateRule('no action').index(),
    vote: p.string().length(10).$type<StoredArgumentVote>(),
    createdAt: p.datetime().defaultRaw('now()'),
    updatedAt: p.datetime().defaultRaw('now()'),
  },
});

export class ArgumentVote extends ArgumentVoteSchema.class {}
ArgumentVoteSchema.setClass(ArgumentVote);
