import type { EntityManager } from '@mikro-orm/core';
import type { Poll, PollOption } from '@verdict/contracts';
import { sql } from 'kysely';
import { query } from '../../db/kysely.ts';
import type { ReactionTables } from '../tables.ts';

export const POLL_COLUMNS = ['id', 'debate_id', 'question', 'options', 'created_at', 'closed_at'] as const;

export type PollRow = {
  id: string;
  debate_id: string;
  question: string;
  options: PollOption[];
  created_at: string;
  closed_at: string | null;
};

type VoteCount = { poll_id: string; option_id: string; n: number; mine: boolean };

/** A poll as readers see it: every option's count (0 included), the total, and the reader's own choice. */
export function toPoll(row: PollRow, counts: VoteCount[]): Poll {
  const tallies = Object.fromEntries(row.options.map((option) => [option.id, 0]));
  let totalVotes = 0;
  let userVote: string | null = null;
  for (const count of counts) {
    if (count.poll_id !== row.id) continue;
    tallies[count.option_id] = count.n;
    totalVotes += count.n;
    if (count.mine) userVote = count.option_id;
  }
  return {
    id: row.id,
    debateId: row.debate_id,
    question: row.question,
    options: row.options,
    status: row.closed_at === null ? 'open' : 'closed',
    createdAt: new Date(row.created_at).toISOString(),
    closedAt: row.closed_at === null ? null : new Date(row.closed_at).toISOString(),
    tallies,
    totalVotes,
    userVote,
  };
}

/**
 * The polls of a debate (or the one named), oldest first, with their votes counted as `em` sees them: in a
 * transaction that voted or closed, the counts include its own change.
 */
export async function readPolls(
  em: EntityManager,
  debateId: string,
  readerId: string | null,
  pollId?: string,
): Promise<Poll[]> {
  const k = query<ReactionTables>(em);
  let select = k
    .selectFrom('polls')
    .select(POLL_COLUMNS)
    .where('debate_id', '=', debateId)
    .orderBy('created_at')
    .orderBy('id');
  if (pollId !== undefined) select = select.where('id', '=', pollId);
  const rows = (await select.execute()) as PollRow[];
  if (rows.length === 0) return [];
  const counts = await k
    .selectFrom('poll_votes')
    .select([
      'poll_id',
      'option_id',
      sql<number>`count(*)::int`.as('n'),
      (readerId === null ? sql<boolean>`false` : sql<boolean>`bool_or(user_id = ${readerId})`).as('mine'),
    ])
    .where(
      'poll_id',
      'in',
      rows.map((row) => row.id),
    )
    .groupBy(['poll_id', 'option_id'])
    .execute();
  return rows.map((row) => toPoll(row, counts));
}
