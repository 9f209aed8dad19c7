import { describe, expect, it } from 'vitest';
import { troubleStreak } from './trouble-streak.ts';

describe('a trouble streak', () => {
  it('reports the first failure of each streak only', () => {
    const reports: [string, unknown][] = [];
    const streak = troubleStreak((message, error) => reports.push([message, error]), 'job pull failing');
    streak.failed('a');
    streak.failed('b');
    streak.failed('c');
    expect(reports).toEqual([['job pull failing', 'a']]);
    streak.recovered();
    streak.recovered();
    streak.failed('d');
    streak.failed('e');
    expect(reports).toEqual([
      ['job pull failing', 'a'],
      ['job pull failing', 'd'],
    ]);
  });
});
