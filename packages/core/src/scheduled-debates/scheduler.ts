import type { EntityManager } from '@mikro-orm/core';
import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import type { DebateCreation } from '../debates/creation.ts';
import { AppError } from '../shared/app-error.ts';
import type { Clock } from '../shared/clock.ts';
import { nextRunAfter } from './next-run.ts';
import { SCHEDULE_COLUMNS, type ScheduleRow } from './schedule-views.ts';
import { timingOf } from './scheduled-debates.ts';
import type { ScheduleTables } from './tables.ts';

/** What one due run came to: a debate, or the refusal a manual debate would have got. */
export type RunOutcome =
  | { kind: 'created'; scheduleId: string; debateId: string }
  | { kind: 'refused'; scheduleId: string; code: AppError['code'] };

/** A due run whose transaction failed unexpectedly (not a refusal): rolled back, due again next pass. */
class RunFailed extends Error {
  override name = 'RunFailed';
  readonly scheduleId: string;
  constructor(scheduleId: string, cause: unknown) {
    super(`scheduled debate ${scheduleId}: its due run failed`, { cause });
    this.scheduleId = scheduleId;
  }
}

/**
 * The scheduler: makes the debates of due schedules. Every engine node runs it (engine/workers/
 * scheduler-worker.ts); any number may pass at once.
 *
 * One due run is one transaction: claim the schedule (`for update skip locked`, so nodes passing together
 * take different schedules), create its debate by every rule of a manual one (creation.ts, as the owner, on
 * the /api route) inside that transaction, link the debate to the run, and move nextRunAt on. They commit
 * together or not at all: a node that dies mid-run leaves the schedule due and no debate, and the next pass
 * (of any node) makes exactly one. The job is queued after commit; should a node die between the two, the
 * reconciler queues the stored debate.
 *
 * nextRunAt moves to the first run after now, not after the run that was due: a schedule missed for days
 * (no node running) runs once, then keeps its rhythm. A refused run (no credits, the free tier used up, too
 * many debates running, a BYOK plan — the service stores no provider keys) records its code and message as
 * lastFailure, is not counted, and the schedule still moves on. The run that reaches maxRuns deactivates it.
 */
export function createScheduler(db: Database, clock: Clock, creation: Pick<DebateCreation, 'create'>) {
  const k = (em: EntityManager) => query<ScheduleTables>(em);

  /** The soonest due schedule not in `skip`, locked; none when every due one is taken or skipped. */
  const claimDue = (em: EntityManager, now: Date, skip: readonly string[]) => {
    let due = k(em)
      .selectFrom('scheduled_debates')
      .select(SCHEDULE_COLUMNS)
      .where('active', '=', true)
      .where('next_run_at', '<=', now.toISOString());
    if (skip.length > 0) due = due.where('id', 'not in', skip);
    return due.orderBy('next_run_at').limit(1).forUpdate().skipLocked().executeTakeFirst();
  };

  const runSchedule = async (
    em: EntityManager,
    schedule: ScheduleRow,
    now: Date,
    queued: (() => Promise<void>)[],
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
      await k(em)
        .insertInto('scheduled_runs')
        .values({
          debate_id: created.debateId,
          schedule_id: schedule.id,
          run_at: schedule.next_run_at,
          created_at: now,
        })
        .execute();
      const runCount = schedule.run_count + 1;
      await k(em)
        .updateTable('scheduled_debates')
        .set({
          run_count: runCount,
          last_run_at: now,
          next_run_at: nextRunAt,
          active: schedule.max_runs === null || runCount < schedule.max_runs,
        })
        .where('id', '=', schedule.id)
        .execute();
      return { kind: 'created', scheduleId: schedule.id, debateId: created.debateId };
    } catch (error) {
      // A refusal: creation rolled its savepoint back, so nothing of the debate was written.
      if (!(error instanceof AppError)) throw error;
      await k(em)
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

  /** One due run in its own transaction, or null when nothing (not in `skip`) is due. */
  const runOneDue = async (skip: readonly string[]): Promise<RunOutcome | null> => {
    const queued: (() => Promise<void>)[] = [];
    const outcome = await db.em().transactional(async (em) => {
      const now = new Date(clock.now());
      const schedule = await claimDue(em, now, skip);
      if (!schedule) return null;
      try {
        return await runSchedule(em, schedule, now, queued);
      } catch (error) {
        throw new RunFailed(schedule.id, error);
      }
    });
    for (const queue of queued) await queue();
    return outcome;
  };

  return {
    /**
     * Makes the due runs, up to `max`, one transaction each, and says what each came to. A run that fails
     * unexpectedly (the database, a defect) is rolled back and left due; the others still run, and the
     * pass then fails with the first such error, so the worker reports it and the next pass tries again.
     */
    runDue: async (max: number): Promise<RunOutcome[]> => {
      const outcomes: RunOutcome[] = [];
      const failed: RunFailed[] = [];
      while (outcomes.length + failed.length < max) {
        try {
          const outcome = await runOneDue(failed.map((f) => f.scheduleId));
          if (!outcome) break;
          outcomes.push(outcome);
        } catch (error) {
          if (!(error instanceof RunFailed)) throw error;
          failed.push(error);
        }
      }
      if (failed[0]) throw failed[0];
      return outcomes;
    },
  };
}

export type Scheduler = ReturnType<typeof createScheduler>;
