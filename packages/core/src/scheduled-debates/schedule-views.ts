import type { ScheduledDebate } from '@verdict/contracts';
import type { Selectable } from 'kysely';
import type { ScheduleTiming } from './next-run.ts';
import type { ScheduleTables } from './tables.ts';

/** A schedule's row as typed queries read it (timestamps as text). */
export type ScheduleRow = Selectable<ScheduleTables['scheduled_debates']>;

export const SCHEDULE_COLUMNS = [
  'id',
  'user_id',
  'question',
  'mode',
  'context',
  'frequency',
  'day_of_week',
  'day_of_month',
  'time_of_day',
  'timezone',
  'active',
  'max_runs',
  'run_count',
  'next_run_at',
  'last_run_at',
  'last_failure_code',
  'last_failure_message',
  'last_failure_at',
  'created_at',
  'updated_at',
] as const;

const isoOf = (stored: string) => new Date(stored).toISOString();

export const toScheduledDebate = (row: ScheduleRow): ScheduledDebate => ({
  id: row.id,
  userId: row.user_id,
  question: row.question,
  mode: row.mode ?? null,
  context: row.context ?? null,
  frequency: row.frequency,
  dayOfWeek: row.day_of_week ?? null,
  dayOfMonth: row.day_of_month ?? null,
  timeOfDay: row.time_of_day,
  timezone: row.timezone,
  active: row.active,
  maxRuns: row.max_runs ?? null,
  runCount: row.run_count,
  nextRunAt: isoOf(row.next_run_at),
  lastRunAt: row.last_run_at ? isoOf(row.last_run_at) : null,
  lastFailure:
    row.last_failure_code && row.last_failure_at
      ? {
          code: row.last_failure_code,
          message: row.last_failure_message ?? '',
          at: isoOf(row.last_failure_at),
        }
      : null,
  createdAt: isoOf(row.created_at),
  updatedAt: isoOf(row.updated_at),
});

/** The timing of a stored schedule. */
export const timingOf = (row: ScheduleRow): ScheduleTiming => ({
  frequency: row.frequency,
  dayOfWeek: row.day_of_week,
  dayOfMonth: row.day_of_month,
  timeOfDay: row.time_of_day,
});

/** What the audit trail shows of a schedule: what it asks and when, whether it runs; not its run history. */
const AUDITED = [
  'question',
  'mode',
  'context',
  'frequency',
  'dayOfWeek',
  'dayOfMonth',
  'timeOfDay',
  'timezone',
  'active',
  'maxRuns',
] as const satisfies readonly (keyof ScheduledDebate)[];

export const auditedSchedule = (row: ScheduleRow) => {
  const shown = toScheduledDebate(row);
  return Object.fromEntries(AUDITED.map((field) => [field, shown[field]])) as Pick<
    ScheduledDebate,
    (typeof AUDITED)[number]
  >;
};
