const DAY_MS = 86_400_000;
const dayNumber = (day: string) => Math.round(Date.parse(`${day}T00:00:00.000Z`) / DAY_MS);

/**
 * Streaks of days: `days` are the distinct UTC days (YYYY-MM-DD, ascending) with at least one debate
 * created. `current` is the run of consecutive days ending today or yesterday (a streak is not broken
 * before the day is over), `longest` the longest run ever.
 */
export function dayStreaks(days: readonly string[], today: string): { current: number; longest: number } {
  let longest = 0;
  let run = 0;
  let previous = Number.NaN;
  for (const day of days) {
    const n = dayNumber(day);
    run = n === previous + 1 ? run + 1 : 1;
    longest = Math.max(longest, run);
    previous = n;
  }
  const last = days.length > 0 ? dayNumber(days[days.length - 1] as string) : Number.NaN;
  const current = last === dayNumber(today) || last === dayNumber(today) - 1 ? run : 0;
  return { current, longest };
}
