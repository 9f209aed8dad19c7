import { type ArgumentVoteResources, removeVote } from './argument-vote-resources.ts';

/** Takes the caller's vote on a claim back; done as well when there was none (or no such claim). */
export const removeArgumentVote =
  ({ db, debateAccess }: ArgumentVoteResources) =>
  async (userId: string, debateId: string, claimId: string): Promise<void> => {
    await debateAccess.audience(userId, debateId);
    await removeVote(db.em(), userId, debateId, claimId);
  };
