import type { ArgumentVotes } from '@verdict/contracts';
import { type ArgumentVoteResources, tallies, toTally } from './argument-vote-resources.ts';

/** Every voted claim's tally, in claimId order, with the caller's own vote (`userId` null: anonymous). */
export const listArgumentVotes =
  ({ db, debateAccess }: ArgumentVoteResources) =>
  async (userId: string | null, debateId: string): Promise<ArgumentVotes> => {
    await debateAccess.audience(userId, debateId);
    const rows = await tallies(db.em(), debateId, userId).orderBy('claim_id').execute();
    return { votes: Object.fromEntries(rows.map((row) => [row.claim_id, toTally(row)])) };
  };
