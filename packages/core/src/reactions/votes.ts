import type { ArgumentVoteResources } from './argument-vote-resources.ts';
import { castArgumentVote } from './cast-argument-vote.ts';
import { listArgumentVotes } from './list-argument-votes.ts';
import { removeArgumentVote } from './remove-argument-vote.ts';

/**
 * Readers' agree/disagree votes on a debate's agent messages, one per reader and claim. Who may: whoever
 * may read the debate reads the tallies, and votes when signed in (debateAccess' audience: a private debate
 * of someone else is FORBIDDEN, a missing or deleted one NOT_FOUND). One operation a file.
 */
export function createArgumentVotes(resources: ArgumentVoteResources) {
  return {
    list: listArgumentVotes(resources),
    cast: castArgumentVote(resources),
    remove: removeArgumentVote(resources),
  };
}

export type ArgumentVoteService = ReturnType<typeof createArgumentVotes>;
