import {
  type CreateScheduledDebateInput,
  SCHEDULES_PER_USER_MAX,
  type ScheduledDebate,
} from '@verdict/contracts';
import { assertUnderUserCap } from '../accounts/per-user-cap.ts';
import { changesOf } from '../audit/audit-changes.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { nextRunAfter, type ScheduleTiming } from './next-run.ts';
import { assertRunsFundable } from './schedule-access.ts';
import { type ScheduleResources, scheduleQuery } from './schedule-resources.ts';
import { auditedSchedule, SCHEDULE_COLUMNS, toScheduledDebate } from './schedule-views.ts';

/** A new schedule, active, its first run the first one after now; refused on BYOK plans. */
export const createSchedule =
  ({ db, clock }: ScheduleResources) =>
  (userId: string, input: CreateScheduledDebateInput): Promise<ScheduledDebate> =>
    db.em().transactional(async (em) => {
      await assertRunsFundable(em, userId);
      await assertUnderUserCap(em, userId, {
        max: SCHEDULES_PER_USER_MAX,
        noun: 'scheduled debate',
        table: 'scheduled_debates',
      });
      const now = new Date(clock.now());
      const timing: ScheduleTiming = {
        frequency: input.frequency,
        dayOfWeek: input.dayOfWeek ?? null,
        dayOfMonth: input.dayOfMonth ?? null,
        timeOfDay: input.timeOfDay,
      };
      const row = await scheduleQuery(em)
        .insertInto('scheduled_debates')
        .values({
          user_id: userId,
          question: input.question,
          mode: input.mode,
          context: input.context ?? null,
          frequency: timing.frequency,
          day_of_week: timing.dayOfWeek,
          day_of_month: timing.dayOfMonth,
          time_of_day: timing.timeOfDay,
          timezone: input.timezone,
          active: true,
          max_runs: input.maxRuns ?? null,
          run_count: 0,
          next_run_at: nextRunAfter(timing, now),
          created_at: now,
          updated_at: now,
        })
        .returning(SCHEDULE_COLUMNS)
        .executeTakeFirstOrThrow();
      await recordAudit(em, clock, {
        owner: { accountId: userId },
        action: 'schedule.create',
        target: { type: 'schedule', id: row.id },
        changes: changesOf(null, auditedSchedule(row)),
      });
      return toScheduledDebate(row);
    });
