import type { EntityManager } from '@mikro-orm/core';
import {
  type CalibrationBucket,
  type DecisionScore,
  type DomainAccuracy,
  RESOLVED_OUTCOMES,
  type ResolvedOutcome,
  type TrendPoint,
} from '@verdict/contracts';
import { sql } from 'kysely';
import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import type { Clock } from '../shared/clock.ts';
import { createCalibrationReport } from './calibration/calibration-report.ts';
import { FIT_WINDOW, refitGlobalIfStale, refitOwnerCalibration } from './calibration/calibration-store.ts';
import {
  calibration,
  type DayTotals,
  dailyTotals,
  decisionScore,
  domainAccuracies,
  type ResolvedSample,
  trend,
} from './score-math.ts';
import { takeScoreRefreshes } from './score-queue.ts';
import type { OutcomeTables } from './tables.ts';

/**
 * Recomputes a user's score from their outcomes and stores it, with their calibration curves refitted on the
 * same outcomes (the newest FIT_WINDOW of them), under a per-user lock so that two workers refreshing the same
 * user cannot store an older computation over a newer one. In the caller's transaction.
 */
export async function refreshScore(em: EntityManager, userId: string) {
  const k = query<OutcomeTables>(em);
  await sql`select pg_advisory_xact_lock(hashtextextended(${`score:${userId}`}, 0))`.execute(k);
  const [resolved, tracked] = await Promise.all([
    k
      .selectFrom('outcomes')
      .select(['status', 'confidence', 'domain', 'recorded_at'])
      .where('owner_id', '=', userId)
      .where('status', 'in', [...RESOLVED_OUTCOMES])
      .orderBy('recorded_at')
      .orderBy('debate_id')
      .execute(),
    k
      .selectFrom('outcomes')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('owner_id', '=', userId)
      .executeTakeFirstOrThrow(),
  ]);
  const samples: ResolvedSample[] = resolved.map((row) => ({
    status: row.status as ResolvedOutcome,
    confidence: row.confidence,
    domain: row.domain,
    resolvedAt: new Date(row.recorded_at ?? 0).toISOString(),
  }));
  const row = {
    user_id: userId,
    score: JSON.stringify(decisionScore(samples, tracked.n)),
    calibration: JSON.stringify(calibration(samples)),
    domains: JSON.stringify(domainAccuracies(samples)),
    daily: JSON.stringify(dailyTotals(samples)),
  };
  const jsonb = (text: string) => sql<never>`${text}::jsonb`;
  await k
    .insertInto('user_scores')
    .values({
      user_id: row.user_id,
      score: jsonb(row.score),
      calibration: jsonb(row.calibration),
      domains: jsonb(row.domains),
      daily: jsonb(row.daily),
      updated_at: sql<string>`now()`,
    })
    .onConflict((c) =>
      c.column('user_id').doUpdateSet({
        score: jsonb(row.score),
        calibration: jsonb(row.calibration),
        domains: jsonb(row.domains),
        daily: jsonb(row.daily),
        updated_at: sql<string>`now()`,
      }),
    )
    .execute();
  await refitOwnerCalibration(em, userId, samples.slice(-FIT_WINDOW));
}

/**
 * One batch of the score worker, in one transaction: takes up to `batch` queued refreshes (score-queue.ts),
 * refits the global calibration curve first if it is stale (the prior of every owner's), and refreshes the
 * score and calibration of each user they name. A failure rolls the taking back with the refresh: the
 * refreshes are due again. Returns how many it took.
 */
export function refreshDueScores(db: Database, batch: number): Promise<number> {
  return db.em().transactional(async (em) => {
    const due = await takeScoreRefreshes(em, batch);
    if (due.length > 0) await refitGlobalIfStale(em);
    for (const userId of new Set(due)) await refreshScore(em, userId);
    return due.length;
  });
}

/** What the score worker stores per user (user_scores). */
type StoredScore = {
  score: DecisionScore;
  calibration: CalibrationBucket[];
  domains: DomainAccuracy[];
  daily: DayTotals[];
};

/** The score a user has before any refresh: nothing tracked, nothing resolved. */
const EMPTY_SCORE: DecisionScore = decisionScore([], 0);

/** A user's decision score and its views, read from the stored score: the same cost for any history. */
export function createScores(db: Database, clock: Clock) {
  /** One column of the stored score: each view reads only its own, so its cost does not grow with the rest. */
  const stored = async <C extends keyof StoredScore>(userId: string, column: C) => {
    const row = await query<OutcomeTables>(db.em())
      .selectFrom('user_scores')
      .select(column)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return (row as Partial<StoredScore> | undefined)?.[column];
  };
  return {
    me: async (userId: string): Promise<DecisionScore> => (await stored(userId, 'score')) ?? EMPTY_SCORE,
    trend: async (userId: string, days: number): Promise<TrendPoint[]> =>
      trend((await stored(userId, 'daily')) ?? [], days, clock.now()),
    calibration: async (userId: string): Promise<CalibrationBucket[]> =>
      (await stored(userId, 'calibration')) ?? [],
    domains: async (userId: string): Promise<DomainAccuracy[]> => (await stored(userId, 'domains')) ?? [],
    /** Raw against calibrated reliability, read from the outcomes and the stored curves (calibration-report.ts). */
    calibrationComparison: createCalibrationReport(db).compare,
  };
}

export type Scores = ReturnType<typeof createScores>;
