import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { daysInMonth, nextRunAfter, type ScheduleTiming } from './next-run.ts';

const at = (iso: string) => new Date(iso);
const daily = (timeOfDay: string): ScheduleTiming => ({
  frequency: 'daily',
  dayOfWeek: null,
  dayOfMonth: null,
  timeOfDay,
});
const weekly = (dayOfWeek: number, timeOfDay = '09:00'): ScheduleTiming => ({
  frequency: 'weekly',
  dayOfWeek,
  dayOfMonth: null,
  timeOfDay,
});
const monthly = (dayOfMonth: number, timeOfDay = '09:00'): ScheduleTiming => ({
  frequency: 'monthly',
  dayOfWeek: null,
  dayOfMonth,
  timeOfDay,
});
const iso = (timing: ScheduleTiming, after: string) => nextRunAfter(timing, at(after)).toISOString();

/** Runs one after another from `start`: each computed from the moment the one before it ran. */
function runsFrom(timing: ScheduleTiming, start: string, count: number): string[] {
  const runs: string[] = [];
  let after = at(start);
  for (let i = 0; i < count; i++) {
    after = nextRunAfter(timing, after);
    runs.push(after.toISOString().slice(0, 16));
  }
  return runs;
}

describe('the next run of a schedule', () => {
  it('is today at timeOfDay while that is still ahead, else tomorrow (daily)', () => {
    expect(iso(daily('09:00'), '2026-03-10T08:59:59.999Z')).toBe('2026-03-10T09:00:00.000Z');
    expect(iso(daily('09:00'), '2026-03-10T09:00:00.000Z')).toBe('2026-03-11T09:00:00.000Z');
    expect(iso(daily('00:00'), '2026-12-31T23:59:00.000Z')).toBe('2027-01-01T00:00:00.000Z');
    expect(iso(daily('23:59'), '2026-02-28T23:59:30.000Z')).toBe('2026-03-01T23:59:00.000Z');
  });

  it('falls on dayOfWeek, 0 being Sunday, and wraps past Saturday into the next week (weekly)', () => {
    // 2026-03-14 is a Saturday.
    expect(iso(weekly(0), '2026-03-14T12:00:00Z')).toBe('2026-03-15T09:00:00.000Z');
    expect(iso(weekly(6), '2026-03-14T08:00:00Z')).toBe('2026-03-14T09:00:00.000Z');
    expect(iso(weekly(6), '2026-03-14T09:00:00Z')).toBe('2026-03-21T09:00:00.000Z');
    expect(iso(weekly(1, '07:30'), '2026-12-30T00:00:00Z')).toBe('2027-01-04T07:30:00.000Z');
  });

  it('runs a dayOfMonth the month lacks on its last day, and on that day again in longer months', () => {
    expect(runsFrom(monthly(31), '2026-01-01T00:00:00Z', 7)).toEqual([
      '2026-01-31T09:00',
      '2026-02-28T09:00',
      '2026-03-31T09:00',
      '2026-04-30T09:00',
      '2026-05-31T09:00',
      '2026-06-30T09:00',
      '2026-07-31T09:00',
    ]);
    expect(runsFrom(monthly(30), '2026-01-31T00:00:00Z', 2)).toEqual([
      '2026-02-28T09:00',
      '2026-03-30T09:00',
    ]);
  });

  it('runs the 29th to 31st on 29 February in a leap year and on the 28th otherwise', () => {
    expect(iso(monthly(29), '2028-02-01T00:00:00Z')).toBe('2028-02-29T09:00:00.000Z');
    expect(iso(monthly(31), '2028-02-01T00:00:00Z')).toBe('2028-02-29T09:00:00.000Z');
    expect(iso(monthly(29), '2027-02-01T00:00:00Z')).toBe('2027-02-28T09:00:00.000Z');
    // 2100 is not a leap year (divisible by 100, not by 400); 2000 was.
    expect(iso(monthly(31), '2100-02-01T00:00:00Z')).toBe('2100-02-28T09:00:00.000Z');
    expect(iso(monthly(31), '2000-02-01T00:00:00Z')).toBe('2000-02-29T09:00:00.000Z');
  });

  it('crosses from December into January of the next year (monthly)', () => {
    expect(iso(monthly(15), '2026-12-15T09:00:00Z')).toBe('2027-01-15T09:00:00.000Z');
    expect(iso(monthly(31, '23:59'), '2026-12-31T23:59:00Z')).toBe('2027-01-31T23:59:00.000Z');
    expect(iso(monthly(1, '00:00'), '2026-12-31T23:59:59Z')).toBe('2027-01-01T00:00:00.000Z');
  });

  it('refuses a weekly timing without dayOfWeek and a monthly one without dayOfMonth', () => {
    expect(() => nextRunAfter({ ...weekly(0), dayOfWeek: null }, at('2026-01-01T00:00:00Z'))).toThrow(
      /dayOfWeek/,
    );
    expect(() => nextRunAfter({ ...monthly(1), dayOfMonth: null }, at('2026-01-01T00:00:00Z'))).toThrow(
      /dayOfMonth/,
    );
  });
});

// Properties against a reference that walks day by day from the reference time and takes the first day
// whose run matches the rule and is after it.
const timeArb = fc
  .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
  .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`);
const timingArb: fc.Arbitrary<ScheduleTiming> = fc.oneof(
  timeArb.map(daily),
  fc.tuple(fc.integer({ min: 0, max: 6 }), timeArb).map(([d, t]) => weekly(d, t)),
  fc.tuple(fc.integer({ min: 1, max: 31 }), timeArb).map(([d, t]) => monthly(d, t)),
);
/** Reference times from 1999 to 2101: leap years, century years, every month end and year end in between. */
const afterArb = fc
  .integer({ min: Date.UTC(1999, 0, 1), max: Date.UTC(2101, 0, 1) })
  .map((ms) => new Date(ms));

function matchesDay(timing: ScheduleTiming, day: Date): boolean {
  if (timing.frequency === 'daily') return true;
  if (timing.frequency === 'weekly') return day.getUTCDay() === timing.dayOfWeek;
  const last = daysInMonth(day.getUTCFullYear(), day.getUTCMonth());
  return day.getUTCDate() === Math.min(timing.dayOfMonth ?? 0, last);
}

function referenceNextRun(timing: ScheduleTiming, after: Date): Date {
  const [hours, minutes] = timing.timeOfDay.split(':').map(Number) as [number, number];
  for (let offset = 0; offset <= 62; offset++) {
    const day = new Date(
      Date.UTC(after.getUTCFullYear(), after.getUTCMonth(), after.getUTCDate() + offset, hours, minutes),
    );
    if (day > after && matchesDay(timing, day)) return day;
  }
  throw new Error('no run within 62 days');
}

describe('the next run, for any timing and reference time', () => {
  it('is the first matching run strictly after the reference time', () => {
    fc.assert(
      fc.property(timingArb, afterArb, (timing, after) => {
        const next = nextRunAfter(timing, after);
        expect(next.getTime()).toBeGreaterThan(after.getTime());
        expect(next.toISOString()).toBe(referenceNextRun(timing, after).toISOString());
      }),
      { numRuns: 2000 },
    );
  });

  it('lands on timeOfDay in UTC and never further away than the period allows', () => {
    const periodMs = { daily: 86_400_000, weekly: 7 * 86_400_000, monthly: 62 * 86_400_000 };
    fc.assert(
      fc.property(timingArb, afterArb, (timing, after) => {
        const next = nextRunAfter(timing, after);
        expect(next.toISOString().slice(11, 16)).toBe(timing.timeOfDay);
        expect(next.getTime() - after.getTime()).toBeLessThanOrEqual(periodMs[timing.frequency]);
      }),
      { numRuns: 1000 },
    );
  });

  it('computed from a run itself gives the following run, never the same one again', () => {
    fc.assert(
      fc.property(timingArb, afterArb, (timing, after) => {
        const first = nextRunAfter(timing, after);
        const second = nextRunAfter(timing, first);
        expect(second.getTime()).toBeGreaterThan(first.getTime());
        expect(nextRunAfter(timing, new Date(second.getTime() - 1)).getTime()).toBe(second.getTime());
      }),
      { numRuns: 1000 },
    );
  });
});
