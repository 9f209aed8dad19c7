import type { ScheduleFrequency } from '@verdict/contracts';

/** What decides when a schedule runs; its timezone is stored but never used (the spec computes in UTC). */
export type ScheduleTiming = {
  frequency: ScheduleFrequency;
  /** 0 = Sunday … 6 = Saturday; used when weekly. */
  dayOfWeek: number | null;
  /** 1–31; used when monthly, clamped to the month's last day. */
  dayOfMonth: number | null;
  /** HH:MM, UTC. */
  timeOfDay: string;
};

const DAY_MS = 86_400_000;

/** Days in a month of a year (month 0–11), in the proleptic Gregorian calendar Date uses. */
export const daysInMonth = (year: number, month: number): number =>
  new Date(Date.UTC(year, month + 1, 0)).getUTCDate();

function minutesOf(timeOfDay: string): { hours: number; minutes: number } {
  const match = /^(\d{2}):(\d{2})$/.exec(timeOfDay);
  const hours = Number(match?.[1]);
  const minutes = Number(match?.[2]);
  if (!match || hours > 23 || minutes > 59) throw new Error(`not an HH:MM time of day: ${timeOfDay}`);
  return { hours, minutes };
}

/** The monthly run of the month `monthsAhead` after `after`'s, at its clamped day. */
function monthlyRun(after: Date, monthsAhead: number, dayOfMonth: number, hours: number, minutes: number) {
  const first = new Date(Date.UTC(after.getUTCFullYear(), after.getUTCMonth() + monthsAhead, 1));
  const day = Math.min(dayOfMonth, daysInMonth(first.getUTCFullYear(), first.getUTCMonth()));
  return new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), day, hours, minutes));
}

/**
 * The first run of a schedule strictly after `after`, in UTC: daily at timeOfDay; weekly on dayOfWeek at
 * timeOfDay; monthly on dayOfMonth at timeOfDay, or on the month's last day when it has no such day (31 runs
 * on 30 April and on 28 or 29 February, and on the 31st again in May). Strictly after, so a run computed
 * from the moment a run happens is never that run again.
 *
 * @example
 * nextRunAfter({ frequency: 'monthly', dayOfWeek: null, dayOfMonth: 31, timeOfDay: '09:00' },
 *   new Date('2026-01-31T09:00:00Z')) // 2026-02-28T09:00:00Z
 */
export function nextRunAfter(timing: ScheduleTiming, after: Date): Date {
  const { hours, minutes } = minutesOf(timing.timeOfDay);
  const sameDay = Date.UTC(after.getUTCFullYear(), after.getUTCMonth(), after.getUTCDate(), hours, minutes);
  switch (timing.frequency) {
    case 'daily':
      return new Date(sameDay > after.getTime() ? sameDay : sameDay + DAY_MS);
    case 'weekly': {
      const dayOfWeek = required(timing.dayOfWeek, 'dayOfWeek');
      const candidate = sameDay + ((dayOfWeek - after.getUTCDay() + 7) % 7) * DAY_MS;
      return new Date(candidate > after.getTime() ? candidate : candidate + 7 * DAY_MS);
    }
    case 'monthly': {
      const dayOfMonth = required(timing.dayOfMonth, 'dayOfMonth');
      const thisMonth = monthlyRun(after, 0, dayOfMonth, hours, minutes);
      return thisMonth > after ? thisMonth : monthlyRun(after, 1, dayOfMonth, hours, minutes);
    }
  }
}

function required(day: number | null, name: string): number {
  if (day === null) throw new Error(`a schedule of this frequency needs ${name}`);
  return day;
}
