import type { EntityManager } from '@mikro-orm/core';
import type { ClaimTally, StoredArgumentVote } from '@verdict/contracts';
import { sql } from 'kysely';
import { query } from '../db/kysely.ts';
import type { DebateAccess } from '../debates/debate-access.ts';
import type { DebateTables } from '../debates/tables.ts';
import type { CoreResources } from '../resources.ts';
import type { ReactionTables } from './tables.ts';

/** What the argument votes run on: core's database and clock, and who may read a debate. */
export type ArgumentVoteResources = Pick<CoreResources, 'db' | 'clock'> & { debateAccess: DebateAccess };

/** Typed queries on the votes and the debates' events, on `em`. */
export const voteQuery = (em: EntityManager) => query<ReactionTables & DebateTables>(em);

/** Per claim: the agree and disagree counts and `userId`'s own vote (none for an anonymous reader). */
export const tallies = (em: EntityManager, debateId: string, userId: string | null) =>
  voteQuery(em)
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
export const toTally = (row: TallyRow | undefined): ClaimTally => ({
  agree: row?.agree ?? 0,
  disagree: row?.disagree ?? 0,
  userVote: row?.user_vote ?? null,
});

export const removeVote = (em: EntityManager, userId: string, debateId: string, claimId: string) =>
  voteQuery(em)
    .deleteFrom('argument_votes')
    .where('debate_id', '=', debateId)
    .where('claim_id', '=', claimId)
    .where('user_id', '=', userId)
    .execute();
