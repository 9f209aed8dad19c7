import type { EntityManager } from '@mikro-orm/core';
import { recordAudit } from '../audit/record-audit.ts';
import { query } from '../db/kysely.ts';
import type { DebateCreation } from '../debates/creation.ts';
import { AppError } from '../shared/app-error.ts';
import { nextRunAfter } from './next-run.ts';
import { SCHEDULE_COLUMNS, type ScheduleRow, timingOf } from './schedule-views.ts';
import type { ScheduleTables } from './tables.ts';

/** What one due run came to: a debate, or the refusal a manual debate would have got. */
export type RunOutcome =
  | { kind: 'created'; scheduleId: string; debateId: string }
  | { kind: 'refused'; scheduleId: string; code: AppError['code'] };

/** The soonest due schedule not in `skip`, locked; none when every due one is taken or skipped. */
export const claimDue = (em: EntityManager, now: Date, skip: readonly string[]) => {
  let due = query<ScheduleTables>(em)
    .selectFrom('scheduled_debates')
    .select(SCHEDULE_COLUMNS)
    .where('active', '=', true)
    .where('next_run_at', '<=', now.toISOString());
  if (skip.length > 0) due = due.where('id', 'not in', skip);
  return due.orderBy('next_run_at').limit(1).forUpdate().skipLocked().executeTakeFirst();
};

/** The run that reaches maxRuns pauses its schedule: a change of the schedule's, made by the scheduler. */
const recordLimitReached = (em: EntityManager, schedule: ScheduleRow, now: Date) =>
  recordAudit(
    em,
    { now: () => now.getTime() },
    {
      owner: { accountId: schedule.user_id },
      action: 'schedule.update',
      target: { type: 'schedule', id: schedule.id },
      changes: { active: { before: true, after: false } },
      actor: { kind: 'system', source: 'scheduler' },
    },
  );

/**
 * The schedule's due run in the caller's transaction: its debate made by every rule of a manual one, the
 * run recorded and the schedule moved on; or, refused, the refusal recorded and the schedule moved on.
 * The debate's job is pushed to `queued`, for after the commit.
 */
export const runSchedule = async (
  em: EntityManager,
  creation: Pick<DebateCreation, 'create'>,
  { schedule, now, queued }: { schedule: ScheduleRow; now: Date; queued: (() => Promise<void>)[] },
): Promise<RunOutcome> => {
  const nextRunAt = nextRunAfter(timingOf(schedule), now);
  try {
    const created = await creation.create(
      {
        ownerId: schedule.user_id,
        route: 'api',
        question: schedule.question,
        context: schedule.context,
        mode: schedule.mode ?? 'fast',
        preset: null,
        routing: null,
        compare: false,
        // Asked again on purpose: an answer cached from the last run would defeat the schedule.
        skipCache: true,
        providerKeys: null,
        idempotencyKey: null,
        fingerprint: { scheduleId: schedule.id, runAt: schedule.next_run_at },
      },
      { em, afterCommit: (queue) => queued.push(queue) },
    );
    await query<ScheduleTables>(em)
      .insertInto('scheduled_runs')
      .values({
        debate_id: created.debateId,
        schedule_id: schedule.id,
        run_at: schedule.next_run_at,
        created_at: now,
      })
      .execute();
    const runCount = schedule.run_count + 1;
    const active = schedule.max_runs === null || runCount < schedule.max_runs;
    await query<ScheduleTables>(em)
      .updateTable('scheduled_debates')
      .set({ run_count: runCount, last_run_at: now, next_run_at: nextRunAt, active })
      .where('id', '=', schedule.id)
      .execute();
    if (!active) await recordLimitReached(em, schedule, now);
    return { kind: 'created', scheduleId: schedule.id, debateId: created.debateId };
  } catch (error) {
    // A refusal: creation rolled its savepoint back, so nothing of the debate was written.
    if (!(error instanceof AppError)) throw error;
    await query<ScheduleTables>(em)
      .updateTable('scheduled_debates')
      .set({
        last_failure_code: error.code,
        last_failure_message: error.message,
        last_failure_at: now,
        next_run_at: nextRunAt,
      })
      .where('id', '=', schedule.id)
      .execute();
    return { kind: 'refused', scheduleId: schedule.id, code: error.code };
  }
};
