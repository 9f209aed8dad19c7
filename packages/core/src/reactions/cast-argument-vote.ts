import type { EntityManager } from '@mikro-orm/core';
import type { ArgumentVoteValue, ClaimVotes } from '@verdict/contracts';
import { sql } from 'kysely';
import { notFound } from '../shared/app-error.ts';
import {
  type ArgumentVoteResources,
  removeVote,
  tallies,
  toTally,
  voteQuery,
} from './argument-vote-resources.ts';

/** The events whose messages readers vote on. */
const CLAIM_EVENTS = ['argument', 'rebuttal'] as const;

/**
 * Sets (agree, disagree) or takes back (neutral) the caller's vote on a claim, and returns the claim's
 * tally after it. Setting is one upsert on the (debate, claim, voter) key, so concurrent votes of one
 * reader leave exactly one row and those of many are all counted.
 */
export const castArgumentVote =
  ({ db, clock, debateAccess }: ArgumentVoteResources) =>
  async (userId: string, debateId: string, claimId: string, vote: ArgumentVoteValue): Promise<ClaimVotes> => {
    await debateAccess.audience(userId, debateId);
    if (!(await isKnownClaim(db.em(), debateId, claimId))) throw notFound('Claim');
    if (vote === 'neutral') {
      await removeVote(db.em(), userId, debateId, claimId);
    } else {
      const at = new Date(clock.now());
      await voteQuery(db.em())
        .insertInto('argument_votes')
        .values({
          debate_id: debateId,
          claim_id: claimId,
          user_id: userId,
          vote,
          created_at: at,
          updated_at: at,
        })
        .onConflict((c) =>
          c
            .columns(['debate_id', 'claim_id', 'user_id'])
            .doUpdateSet({ vote, updated_at: at })
            // An unchanged vote keeps its last change time.
            .where('argument_votes.vote', '<>', vote),
        )
        .execute();
    }
    const row = await tallies(db.em(), debateId, userId).where('claim_id', '=', claimId).executeTakeFirst();
    return { claimId, ...toTally(row) };
  };

/**
 * A claim of the debate: a stored argument or rebuttal carries it, or votes already name it. A retry
 * clears the earlier attempt's events but not the votes on its messages, which stay valid: they are still
 * counted, and their voters may still change or take them back.
 */
const isKnownClaim = async (em: EntityManager, debateId: string, claimId: string) => {
  const row = await voteQuery(em)
    .selectNoFrom((eb) =>
      eb
        .or([
          eb.exists(
            eb
              .selectFrom('debate_event_log')
              .select(sql.lit(1).as('one'))
              .where('debate_id', '=', debateId)
              .where('type', 'in', [...CLAIM_EVENTS])
              .where(sql<string>`data->>'claimId'`, '=', claimId),
          ),
          eb.exists(
            eb
              .selectFrom('argument_votes')
              .select(sql.lit(1).as('one'))
              .where('debate_id', '=', debateId)
              .where('claim_id', '=', claimId),
          ),
        ])
        .as('known'),
    )
    .executeTakeFirstOrThrow();
  return row.known === true;
};
