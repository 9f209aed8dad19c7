import type { EntityManager } from '@mikro-orm/core';
import { RESOLVED_OUTCOMES, type ResolvedOutcome } from '@verdict/contracts';
import { sql } from 'kysely';
import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import { createCalibrationReport } from './calibration/calibration-report.ts';
import { FIT_WINDOW, refitGlobalIfStale, refitOwnerCalibration } from './calibration/calibration-store.ts';
import { myScore } from './my-score.ts';
import { scoreCalibration } from './score-calibration.ts';
import { scoreDomains } from './score-domains.ts';
import {
  calibration,
  dailyTotals,
  decisionScore,
  domainAccuracies,
  type ResolvedSample,
} from './score-math.ts';
import { takeScoreRefreshes } from './score-queue.ts';
import type { ScoreResources } from './score-resources.ts';
import { scoreTrend } from './score-trend.ts';
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

/** A user's decision score and its views, read from the stored score: the same cost for any history. */
export function createScores(resources: ScoreResources) {
  return {
    me: myScore(resources),
    trend: scoreTrend(resources),
    calibration: scoreCalibration(resources),
    domains: scoreDomains(resources),
    /** Raw against calibrated reliability, read from the outcomes and the stored curves (calibration-report.ts). */
    calibrationComparison: createCalibrationReport(resources).compare,
  };
}

export type Scores = ReturnType<typeof createScores>;
