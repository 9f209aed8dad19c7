import type { EntityManager } from '@mikro-orm/core';
import type {
  ArgumentVotes,
  ArgumentVoteValue,
  ClaimTally,
  ClaimVotes,
  StoredArgumentVote,
} from '@verdict/contracts';
import { sql } from 'kysely';
import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import type { DebateAccess } from '../debates/debate-access.ts';
import type { DebateTables } from '../debates/tables.ts';
import { notFound } from '../shared/app-error.ts';
import type { Clock } from '../shared/clock.ts';
import type { ReactionTables } from './tables.ts';

type Tables = ReactionTables & DebateTables;

/** The events whose messages readers vote on. */
const CLAIM_EVENTS = ['argument', 'rebuttal'] as const;

/**
 * Readers' agree/disagree votes on a debate's agent messages, one per reader and claim. Who may: whoever
 * may read the debate reads the tallies, and votes when signed in (debateAccess' audience: a private debate
 * of someone else is FORBIDDEN, a missing or deleted one NOT_FOUND).
 */
export function createArgumentVotes(db: Database, clock: Clock, debateAccess: DebateAccess) {
  return {
    /** Every voted claim's tally, in claimId order, with the caller's own vote (`userId` null: anonymous). */
    list: async (userId: string | null, debateId: string): Promise<ArgumentVotes> => {
      await debateAccess.audience(userId, debateId);
      const rows = await tallies(db.em(), debateId, userId).orderBy('claim_id').execute();
      return { votes: Object.fromEntries(rows.map((row) => [row.claim_id, toTally(row)])) };
    },

    /**
     * Sets (agree, disagree) or takes back (neutral) the caller's vote on a claim, and returns the claim's
     * tally after it. Setting is one upsert on the (debate, claim, voter) key, so concurrent votes of one
     * reader leave exactly one row and those of many are all counted.
     */
    cast: async (
      userId: string,
      debateId: string,
      claimId: string,
      vote: ArgumentVoteValue,
    ): Promise<ClaimVotes> => {
      await debateAccess.audience(userId, debateId);
      if (!(await isKnownClaim(db.em(), debateId, claimId))) throw notFound('Claim');
      if (vote === 'neutral') {
        await removeVote(db.em(), userId, debateId, claimId);
      } else {
        const at = new Date(clock.now());
        await query<Tables>(db.em())
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
    },

    /** Takes the caller's vote on a claim back; done as well when there was none (or no such claim). */
    remove: async (userId: string, debateId: string, claimId: string): Promise<void> => {
      await debateAccess.audience(userId, debateId);
      await removeVote(db.em(), userId, debateId, claimId);
    },
  };
}

export type ArgumentVoteService = ReturnType<typeof createArgumentVotes>;

/** Per claim: the agree and disagree counts and `userId`'s own vote (none for an anonymous reader). */
const tallies = (em: EntityManager, debateId: string, userId: string | null) =>
  query<Tables>(em)
    .selectFrom('argument_votes')
    .select([
      'claim_id',
      sql<number>`count(*) filter (where vote = 'agree')::int`.as('agree'),
      sql<number>`count(*) filter (where vote = 'disagree')::int`.as('disagree'),
      (userId === null
        ? sql<StoredArgumentVote | null>`null`
        : sql<StoredArgumentVote | null>`max(vote) filter (where user_id = ${userId})`
      ).as('user_vote'),
    ])
    .where('debate_id', '=', debateId)
    .groupBy('claim_id');

type TallyRow = Awaited<ReturnType<ReturnType<typeof tallies>['execute']>>[number];
const toTally = (row: TallyRow | undefined): ClaimTally => ({
  agree: row?.agree ?? 0,
  disagree: row?.disagree ?? 0,
  userVote: row?.user_vote ?? null,
});

/**
 * A claim of the debate: a stored argument or rebuttal carries it, or votes already name it. A retry
 * clears the earlier attempt's events but not the votes on its messages, which stay valid: they are still
 * counted, and their voters may still change or take them back.
 */
const isKnownClaim = async (em: EntityManager, debateId: string, claimId: string) => {
  const row = await query<Tables>(em)
    .selectNoFrom((eb) =>
      eb
        .or([
          eb.exists(
            eb
              .selectFrom('debate_events')
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

const removeVote = (em: EntityManager, userId: string, debateId: string, claimId: string) =>
  query<Tables>(em)
    .deleteFrom('argument_votes')
    .where('debate_id', '=', debateId)
    .where('claim_id', '=', claimId)
    .where('user_id', '=', userId)
    .execute();
