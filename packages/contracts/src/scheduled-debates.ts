import { z } from 'zod';
import { DebateMode } from './debates.ts';
import { ErrorCode } from './errors.ts';
import { UuidInput } from './ids.ts';
import { visibleText } from './text.ts';

export const SCHEDULE_QUESTION_MIN = 10;
export const SCHEDULE_QUESTION_MAX = 500;
export const SCHEDULE_CONTEXT_MAX = 2000;
export const SCHEDULE_MAX_RUNS_MAX = 1000;
/** Schedules one user owns at most: each may create a debate a day, so the scheduler's work stays bounded. */
export const SCHEDULES_PER_USER_MAX = 100;
export const SCHEDULE_LIST_LIMIT_MAX = 100;
export const SCHEDULE_LIST_LIMIT_DEFAULT = 20;

export const ScheduleFrequency = z.enum(['daily', 'weekly', 'monthly']);
export type ScheduleFrequency = z.infer<typeof ScheduleFrequency>;

const ScheduleQuestion = visibleText(SCHEDULE_QUESTION_MIN, SCHEDULE_QUESTION_MAX);
const ScheduleContext = visibleText(1, SCHEDULE_CONTEXT_MAX);
const DayOfWeek = z.number().int().min(0).max(6).meta({ description: '0 = Sunday … 6 = Saturday' });
const DayOfMonth = z
  .number()
  .int()
  .min(1)
  .max(31)
  .meta({ description: 'A month without this day runs on its last day (31 → 30 April, 28/29 February)' });
const TimeOfDay = z
  .string()
  .length(5)
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, { message: 'HH:MM from 00:00 to 23:59' })
  .meta({ description: 'HH:MM, UTC' });
const MaxRuns = z.number().int().min(1).max(SCHEDULE_MAX_RUNS_MAX);

/**
 * Whether the runtime knows `name` as an IANA time zone (`Europe/Paris`, `UTC`). Offsets such as `+01:00`,
 * which Intl also accepts, are not IANA identifiers and are refused.
 *
 * @example
 * isTimeZone('America/New_York') // true
 * isTimeZone('+01:00') // false
 */
export function isTimeZone(name: string): boolean {
  if (!/^[A-Za-z]/.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const TimeZone = z
  .string()
  .min(1)
  .max(64)
  .refine(isTimeZone, { message: 'Not an IANA time zone' })
  .meta({ description: 'IANA time zone; stored and shown, never used: every time is computed in UTC' });

/** Weekly needs a day of the week, monthly a day of the month; the issue names the missing field. */
export function missingScheduleDay(schedule: {
  frequency: ScheduleFrequency;
  dayOfWeek?: number | null | undefined;
  dayOfMonth?: number | null | undefined;
}): { path: 'dayOfWeek' | 'dayOfMonth'; message: string } | null {
  if (schedule.frequency === 'weekly' && (schedule.dayOfWeek ?? null) === null) {
    return { path: 'dayOfWeek', message: 'A weekly schedule needs dayOfWeek (0 = Sunday … 6 = Saturday)' };
  }
  if (schedule.frequency === 'monthly' && (schedule.dayOfMonth ?? null) === null) {
    return { path: 'dayOfMonth', message: 'A monthly schedule needs dayOfMonth (1–31)' };
  }
  return null;
}

/** POST /api/scheduled-debates. */
export const CreateScheduledDebateInput = z
  .strictObject({
    question: ScheduleQuestion,
    frequency: ScheduleFrequency,
    dayOfWeek: DayOfWeek.optional().meta({ description: 'Required when weekly; 0 = Sunday' }),
    dayOfMonth: DayOfMonth.optional(),
    timeOfDay: TimeOfDay.default('09:00'),
    timezone: TimeZone.default('UTC'),
    mode: DebateMode.default('fast'),
    context: ScheduleContext.optional(),
    maxRuns: MaxRuns.optional().meta({
      description: 'Debates to create at most (1–1000); omitted: no limit',
    }),
  })
  .superRefine((input, ctx) => {
    const missing = missingScheduleDay(input);
    if (missing) ctx.addIssue({ code: 'custom', path: [missing.path], message: missing.message });
  });
export type CreateScheduledDebateInput = z.infer<typeof CreateScheduledDebateInput>;

export const ScheduledDebateIdInput = z.object({ id: UuidInput });

/** PATCH /api/scheduled-debates/:id: the fields given change, the others keep their values. */
export const UpdateScheduledDebateInput = z.strictObject({
  id: UuidInput,
  question: ScheduleQuestion.optional(),
  mode: DebateMode.nullable().optional().meta({ description: 'null: runs in the default mode, fast' }),
  context: ScheduleContext.nullable().optional().meta({ description: 'null clears it' }),
  frequency: ScheduleFrequency.optional(),
  dayOfWeek: DayOfWeek.nullable().optional(),
  dayOfMonth: DayOfMonth.nullable().optional(),
  timeOfDay: TimeOfDay.optional(),
  timezone: TimeZone.optional(),
  active: z
    .boolean()
    .optional()
    .meta({ description: 'false pauses; true resumes, next run computed from now' }),
  maxRuns: MaxRuns.nullable().optional().meta({ description: 'null removes the limit' }),
});
export type UpdateScheduledDebateInput = z.infer<typeof UpdateScheduledDebateInput>;

/** `true` or `false` as a query string writes them; anything else is refused, never read as true. */
const queryBoolean = z.enum(['true', 'false']).transform((text) => text === 'true');

/** GET /api/scheduled-debates. */
export const ScheduledDebateListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(SCHEDULE_LIST_LIMIT_MAX).default(SCHEDULE_LIST_LIMIT_DEFAULT),
  active: queryBoolean.optional().meta({ description: '`true` or `false`; omitted: all' }),
});
export type ScheduledDebateListQuery = z.infer<typeof ScheduledDebateListQuery>;

/** Why the latest due run created no debate: the refusal a manual debate would have got. */
export const ScheduleRunFailure = z
  .object({
    code: ErrorCode.meta({ description: 'QUOTA_EXCEEDED, MONTHLY_LIMIT_REACHED, CONCURRENT_LIMIT …' }),
    message: z.string(),
    at: z.iso.datetime(),
  })
  .meta({ id: 'ScheduleRunFailure' });
export type ScheduleRunFailure = z.infer<typeof ScheduleRunFailure>;

export const ScheduledDebate = z
  .object({
    id: z.uuid(),
    userId: z.uuid().meta({ description: 'Owner' }),
    question: z.string(),
    mode: DebateMode.nullable().meta({ description: 'null: the default mode, fast' }),
    context: z.string().nullable(),
    frequency: ScheduleFrequency,
    dayOfWeek: z.number().int().min(0).max(6).nullable().meta({ description: '0 = Sunday' }),
    dayOfMonth: z.number().int().min(1).max(31).nullable(),
    timeOfDay: z.string().meta({ description: 'HH:MM, UTC' }),
    timezone: z.string().meta({ description: 'IANA identifier; stored, but every time is computed in UTC' }),
    active: z.boolean(),
    maxRuns: z.number().int().min(1).max(SCHEDULE_MAX_RUNS_MAX).nullable().meta({
      description: 'null: unlimited',
    }),
    runCount: z.number().int().min(0).meta({ description: 'Debates created so far' }),
    nextRunAt: z.iso.datetime().meta({ description: 'UTC' }),
    lastRunAt: z.iso.datetime().nullable(),
    lastFailure: ScheduleRunFailure.nullable().meta({
      description:
        'The latest due run that created no debate (not counted in runCount), kept until another replaces ' +
        'it: later than lastRunAt means the latest run failed',
    }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'ScheduledDebate' });
export type ScheduledDebate = z.infer<typeof ScheduledDebate>;

export const ScheduledDebatePage = z
  .object({
    schedules: z.array(ScheduledDebate),
    page: z.number().int(),
    limit: z.number().int(),
    total: z.number().int(),
    totalPages: z.number().int(),
  })
  .meta({ id: 'ScheduledDebatePage' });
export type ScheduledDebatePage = z.infer<typeof ScheduledDebatePage>;
