import { describe, expect, it } from 'vitest';
import { heatOf } from './heat.ts';

describe('the vote heat scale', () => {
  it('reads a claim without votes as its own level, not as a split', () => {
    expect(heatOf(undefined).id).toBe('none');
    expect(heatOf({ agree: 0, disagree: 0 }).id).toBe('none');
  });

  it('places a claim by its share of agree votes, in fifths', () => {
    expect(heatOf({ agree: 0, disagree: 3 }).id).toBe('against');
    expect(heatOf({ agree: 1, disagree: 3 }).id).toBe('leans-against');
    expect(heatOf({ agree: 1, disagree: 1 }).id).toBe('split');
    expect(heatOf({ agree: 3, disagree: 1 }).label).toBe('leans agree');
    expect(heatOf({ agree: 4, disagree: 1 }).id).toBe('for');
    expect(heatOf({ agree: 5, disagree: 0 }).id).toBe('for');
  });
});
