import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dayStreaks } from './streak-math.ts';

// Reference implementation from the rules, using calendar arithmetic (Date.UTC normalises day overflow).
const pad = (n: number, width: number) => String(n).padStart(width, '0');
const ymd = (year: number, month: number, day: number) => {
  const d = new Date(Date.UTC(year, month, day));
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}`;
};
/** The day `offset` calendar days after the 'YYYY-MM-DD' `day`. */
const shiftDay = (day: string, offset: number) => {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return ymd(y, m - 1, d + offset);
};

function refStreaks(days: readonly string[], today: string) {
  let longest = 0;
  let run = 0;
  for (let i = 0; i < days.length; i++) {
    run = i > 0 && shiftDay(days[i - 1]!, 1) === days[i] ? run + 1 : 1;
    if (run > longest) longest = run;
  }
  const last = days[days.length - 1];
  const current = last !== undefined && (last === today || last === shiftDay(today, -1)) ? run : 0;
  return { current, longest };
}

/** 2024-01-01: bases from it up to ~2032 cover the leap days of 2024 and 2028 and several year ends. */
const BASE = '2024-01-01';

/** A base day, distinct day offsets from it (sorted, as 'YYYY-MM-DD'), and today on or after the last one. */
const streakInput = fc
  .record({
    base: fc.integer({ min: 0, max: 3000 }),
    offsets: fc.uniqueArray(fc.integer({ min: 0, max: 60 }), { maxLength: 40 }),
    after: fc.integer({ min: 0, max: 4 }),
  })
  .map(({ base, offsets, after }) => {
    const sorted = [...offsets].sort((a, b) => a - b);
    const start = shiftDay(BASE, base);
    const days = sorted.map((o) => shiftDay(start, o));
    const lastOffset = sorted[sorted.length - 1] ?? 0;
    return { days, today: shiftDay(start, lastOffset + after) };
  });

describe('dayStreaks', () => {
  it('agrees with the reference', () => {
    fc.assert(
      fc.property(streakInput, ({ days, today }) => {
        expect(dayStreaks(days, today)).toEqual(refStreaks(days, today));
      }),
      { numRuns: 1000 },
    );
  });

  it('keeps the current streak within the longest and the number of days', () => {
    fc.assert(
      fc.property(streakInput, ({ days, today }) => {
        const { current, longest } = dayStreaks(days, today);
        expect(current).toBeGreaterThanOrEqual(0);
        expect(current).toBeLessThanOrEqual(longest);
        expect(longest).toBeLessThanOrEqual(days.length);
        expect(longest > 0).toBe(days.length > 0);
      }),
    );
  });

  it('is zero with no days', () => {
    expect(dayStreaks([], '2026-03-10')).toEqual({ current: 0, longest: 0 });
  });

  it('counts a run ending today or yesterday, not one ending two days ago', () => {
    const days = ['2026-03-05', '2026-03-07', '2026-03-08', '2026-03-09'];
    expect(dayStreaks(days, '2026-03-09')).toEqual({ current: 3, longest: 3 });
    expect(dayStreaks(days, '2026-03-10')).toEqual({ current: 3, longest: 3 });
    expect(dayStreaks(days, '2026-03-11')).toEqual({ current: 0, longest: 3 });
  });

  it('gives the current run, not the longest, when an older run was longer', () => {
    const days = ['2026-03-01', '2026-03-02', '2026-03-03', '2026-03-05'];
    expect(dayStreaks(days, '2026-03-05')).toEqual({ current: 1, longest: 3 });
  });

  it('runs across a month end', () => {
    expect(dayStreaks(['2026-01-30', '2026-01-31', '2026-02-01'], '2026-02-01')).toEqual({
      current: 3,
      longest: 3,
    });
    // 2026-02-28 → 2026-03-01: not a leap year.
    expect(dayStreaks(['2026-02-28', '2026-03-01'], '2026-03-02')).toEqual({ current: 2, longest: 2 });
    expect(dayStreaks(['2026-04-30', '2026-05-01'], '2026-05-01')).toEqual({ current: 2, longest: 2 });
  });

  it('runs across a leap day', () => {
    expect(dayStreaks(['2028-02-28', '2028-02-29', '2028-03-01'], '2028-03-01')).toEqual({
      current: 3,
      longest: 3,
    });
    // Skipping the leap day breaks the run.
    expect(dayStreaks(['2028-02-28', '2028-03-01'], '2028-03-01')).toEqual({ current: 1, longest: 1 });
  });

  it('runs across a year end', () => {
    expect(dayStreaks(['2026-12-30', '2026-12-31', '2027-01-01'], '2027-01-02')).toEqual({
      current: 3,
      longest: 3,
    });
  });

  it('does not join days a month apart with the same day number', () => {
    expect(dayStreaks(['2026-01-01', '2026-02-01', '2026-02-02'], '2026-02-02')).toEqual({
      current: 2,
      longest: 2,
    });
  });

  it('has no current streak when the last day is after today', () => {
    expect(dayStreaks(['2026-03-10', '2026-03-11'], '2026-03-09')).toEqual({ current: 0, longest: 2 });
  });
});
