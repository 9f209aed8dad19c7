import {
  missingScheduleDay,
  type ScheduledDebate,
  type UpdateScheduledDebateInput,
} from '@verdict/contracts';
import { changesOf } from '../audit/audit-changes.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { AppError } from '../shared/app-error.ts';
import { nextRunAfter } from './next-run.ts';
import { assertRunsFundable, ownedSchedule } from './schedule-access.ts';
import { type ScheduleResources, scheduleQuery } from './schedule-resources.ts';
import { auditedSchedule, SCHEDULE_COLUMNS, type ScheduleRow, toScheduledDebate } from './schedule-views.ts';

export type ScheduleChanges = Omit<UpdateScheduledDebateInput, 'id'>;

/**
 * Changes the fields given. nextRunAt is recomputed from now when a timing field changes value, or when
 * a paused schedule is resumed; weekly needs a dayOfWeek and monthly a dayOfMonth, given here or
 * already stored. A maxRuns at or below runCount pauses the schedule (its limit is reached); resuming
 * one whose limit is reached is refused until maxRuns is raised or removed, and so is resuming one on a
 * BYOK plan (its runs could not be paid).
 */
export const updateSchedule =
  ({ db, clock }: ScheduleResources) =>
  (userId: string, id: string, changes: ScheduleChanges): Promise<ScheduledDebate> =>
    db.em().transactional(async (em) => {
      const row = await ownedSchedule(em, userId, id, true);
      const { stored, timing } = timingAfter(row, changes);
      const active = activeAfter(row, changes);
      if (active && !row.active) await assertRunsFundable(em, userId);
      const timingChanged = TIMING_FIELDS.some((field) => timing[field] !== stored[field]);
      const resumed = active && !row.active;
      const now = new Date(clock.now());
      const set = {
        ...(changes.question !== undefined ? { question: changes.question } : {}),
        ...(changes.mode !== undefined ? { mode: changes.mode } : {}),
        ...(changes.context !== undefined ? { context: changes.context } : {}),
        ...(timingChanged
          ? {
              frequency: timing.frequency,
              day_of_week: timing.dayOfWeek,
              day_of_month: timing.dayOfMonth,
              time_of_day: timing.timeOfDay,
              timezone: timing.timezone,
            }
          : {}),
        ...(active !== row.active ? { active } : {}),
        ...(changes.maxRuns !== undefined ? { max_runs: changes.maxRuns } : {}),
        ...(timingChanged || resumed ? { next_run_at: nextRunAfter(timing, now) } : {}),
      };
      if (Object.keys(set).length === 0) return toScheduledDebate(row);
      const updated = await scheduleQuery(em)
        .updateTable('scheduled_debates')
        .set({ ...set, updated_at: now })
        .where('id', '=', id)
        .returning(SCHEDULE_COLUMNS)
        .executeTakeFirstOrThrow();
      const recorded = changesOf(auditedSchedule(row), auditedSchedule(updated));
      // Only the fields whose value moved; a schedule paused or resumed shows it as `active`.
      if (Object.keys(recorded).length > 0) {
        await recordAudit(em, clock, {
          owner: { accountId: userId },
          action: 'schedule.update',
          target: { type: 'schedule', id },
          changes: recorded,
        });
      }
      return toScheduledDebate(updated);
    });

/** The fields that decide when a schedule runs: a change to any of them recomputes nextRunAt from now. */
const TIMING_FIELDS = ['frequency', 'dayOfWeek', 'dayOfMonth', 'timeOfDay', 'timezone'] as const;

/** The timing as stored and as the changes leave it; a weekly or monthly one without its day is refused. */
function timingAfter(row: ScheduleRow, changes: ScheduleChanges) {
  const stored = {
    frequency: row.frequency,
    dayOfWeek: row.day_of_week,
    dayOfMonth: row.day_of_month,
    timeOfDay: row.time_of_day,
    timezone: row.timezone,
  };
  const timing = {
    frequency: changes.frequency ?? stored.frequency,
    dayOfWeek: changes.dayOfWeek !== undefined ? changes.dayOfWeek : stored.dayOfWeek,
    dayOfMonth: changes.dayOfMonth !== undefined ? changes.dayOfMonth : stored.dayOfMonth,
    timeOfDay: changes.timeOfDay ?? stored.timeOfDay,
    timezone: changes.timezone ?? stored.timezone,
  };
  const missing = missingScheduleDay(timing);
  if (missing) throw dayMissing(missing);
  return { stored, timing };
}

const dayMissing = (missing: { path: string; message: string }) =>
  new AppError('VALIDATION_ERROR', missing.message, {
    details: [{ path: missing.path, message: missing.message, code: 'custom' }],
  });

/** Whether the schedule is active once changed: paused when its maxRuns is reached, which refuses a resume. */
function activeAfter(row: ScheduleRow, changes: ScheduleChanges): boolean {
  const maxRuns = changes.maxRuns !== undefined ? changes.maxRuns : row.max_runs;
  const limitReached = maxRuns !== null && row.run_count >= maxRuns;
  if (changes.active === true && limitReached) {
    const message = `It has run ${row.run_count} of its maxRuns ${maxRuns}: raise or remove maxRuns to resume it`;
    throw new AppError('VALIDATION_ERROR', message, {
      details: [{ path: 'active', message, code: 'custom' }],
    });
  }
  return limitReached ? false : (changes.active ?? row.active);
}
