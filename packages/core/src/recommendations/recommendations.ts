import {
  type RecommendationReason,
  type Recommendations,
  type RecommendedDebate,
  SERVICE_NAME,
  type Verdict,
} from '@verdict/contracts';
import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import { query } from '../db/kysely.ts';
import type { DebateTables } from '../debates/tables.ts';
import type { ReactionTables } from '../reactions/tables.ts';
import type { CoreResources } from '../resources.ts';
import { AppError } from '../shared/app-error.ts';
import { interestKeywords } from './keywords.ts';

type Tables = DebateTables & ReactionTables;

/** What the recommendations use of core's resources. */
export type RecommendationResources = Pick<CoreResources, 'db' | 'clock'>;

/** Past debates a caller needs before suggestions follow their interests rather than what is trending. */
export const INTEREST_THRESHOLD = 3;
/** The caller's latest questions the interests are read from, and the keywords kept. */
const QUESTIONS_READ = 50;
const KEYWORDS_KEPT = 8;
const TRENDING_DAYS = 30;
/** Trending score: a view counts 1, a vote (argument or poll) 2, a fork 3 — effort shows interest. */
const WEIGHT = { view: 1, vote: 2, fork: 3 };

const INTERESTS: RecommendationReason = 'Based on your interests';
const TRENDING: RecommendationReason = `Trending on ${SERVICE_NAME}`;

/** The text search reads: the same expression search's full-text index is built on. */
const document = sql`to_tsvector('english', d.question || ' ' || coalesce(d.context, ''))`;

/**
 * Other users' public debates for the caller: with INTEREST_THRESHOLD past debates, those matching the
 * keywords of their own questions (best full-text rank first), topped up with trending ones; otherwise the
 * public debates of the last 30 days with the most views, votes and forks. Never the caller's own, private,
 * deleted or failed debates, and each debate once.
 */
export function createRecommendations({ db, clock }: RecommendationResources) {
  return {
    for: async (userId: string, limit: number): Promise<Recommendations> => {
      try {
        const k = query<Tables>(db.em());
        const questions = await ownQuestions(k, userId);
        const matched =
          questions.length >= INTEREST_THRESHOLD
            ? await byInterest(k, userId, interestKeywords(questions, KEYWORDS_KEPT), limit)
            : [];
        const topUp =
          matched.length < limit
            ? await trending(
                k,
                clock.now(),
                userId,
                limit - matched.length,
                matched.map((row) => row.id),
              )
            : [];
        return {
          recommendations: [
            ...matched.map((row) => toRecommended(row, INTERESTS)),
            ...topUp.map((row) => toRecommended(row, TRENDING)),
          ],
        };
      } catch (error) {
        throw new AppError('RECOMMENDATIONS_FAILED', 'Recommendations could not be computed', {
          cause: error,
        });
      }
    },
  };
}

const candidates = (k: Kysely<Tables>, userId: string) =>
  k
    .selectFrom('debates as d')
    .select([
      'd.id',
      'd.question',
      'd.mode',
      'd.status',
      'd.created_at',
      'd.completed_at',
      'd.verdict',
      'd.view_count',
    ])
    .where('d.is_public', '=', true)
    .where('d.deleted_at', 'is', null)
    // A failed debate has no verdict and never will: nothing to recommend.
    .where('d.status', '<>', 'failed')
    .where('d.owner_id', '<>', userId);

type Row = Awaited<ReturnType<ReturnType<typeof candidates>['execute']>>[number];
const toRecommended = (row: Row, reason: RecommendationReason): RecommendedDebate => {
  const verdict = row.status === 'completed' ? (row.verdict as Verdict | null) : null;
  return {
    id: row.id,
    question: row.question,
    mode: row.mode ?? null,
    status: row.status,
    createdAt: new Date(row.created_at).toISOString(),
    completedAt: row.completed_at ? new Date(row.completed_at).toISOString() : null,
    recommendation: verdict?.recommendation ?? null,
    oneLiner: verdict?.oneLiner ?? null,
    confidence: verdict?.confidence ?? null,
    viewCount: row.view_count,
    recommendationReason: reason,
  };
};

async function ownQuestions(k: Kysely<Tables>, userId: string): Promise<string[]> {
  const rows = await k
    .selectFrom('debates')
    .select('question')
    .where('owner_id', '=', userId)
    .where('deleted_at', 'is', null)
    .orderBy('created_at', 'desc')
    .limit(QUESTIONS_READ)
    .execute();
  return rows.map((row) => row.question);
}

async function byInterest(
  k: Kysely<Tables>,
  userId: string,
  keywords: string[],
  limit: number,
): Promise<Row[]> {
  if (keywords.length === 0) return [];
  // Each keyword its own plainto_tsquery, OR-ed: the words reach PostgreSQL as parameters, never as query syntax.
  const wanted = sql.join(
    keywords.map((word) => sql`plainto_tsquery('english', ${word})`),
    sql` || `,
  );
  return candidates(k, userId)
    .where(sql<SqlBool>`${document} @@ (${wanted})`)
    .orderBy(sql`ts_rank(${document}, ${wanted})`, 'desc')
    .orderBy('d.view_count', 'desc')
    .orderBy('d.created_at', 'desc')
    .limit(limit)
    .execute();
}

async function trending(
  k: Kysely<Tables>,
  now: number,
  userId: string,
  limit: number,
  leaveOut: string[],
): Promise<Row[]> {
  const since = new Date(now - TRENDING_DAYS * 86_400_000).toISOString();
  const votes: Expression<number> = sql<number>`(
    (select count(*) from argument_votes v where v.debate_id = d.id) +
    (select count(*) from poll_votes pv join polls p on p.id = pv.poll_id where p.debate_id = d.id))`;
  const forks: Expression<number> = sql<number>`(select count(*) from debates f
    where f.forked_from_id = d.id and f.deleted_at is null)`;
  let select = candidates(k, userId).where('d.created_at', '>=', since);
  if (leaveOut.length > 0) select = select.where('d.id', 'not in', leaveOut);
  return select
    .orderBy(
      sql`${WEIGHT.view} * d.view_count + ${WEIGHT.vote} * ${votes} + ${WEIGHT.fork} * ${forks}`,
      'desc',
    )
    .orderBy('d.created_at', 'desc')
    .limit(limit)
    .execute();
}
