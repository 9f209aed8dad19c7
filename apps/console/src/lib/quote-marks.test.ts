import { describe, expect, it } from 'vitest';
import { markedParts, quoteRanges } from './quote-marks.ts';

const marked = (passage: string, quote: string) => {
  const ranges = quoteRanges(passage, quote);
  return (
    ranges &&
    markedParts(passage, ranges)
      .filter((part) => part.marked)
      .map((part) => part.text)
  );
};

describe('a quote marked in its passage', () => {
  it('finds the words whatever their case, spacing, quote marks and dashes', () => {
    const passage = 'Churn  Doubled after the \u201cnew\u201d price\u2014rise.\nIt fell later.';
    expect(marked(passage, 'churn doubled after the "new" price-rise')).toEqual([
      'Churn  Doubled after the \u201cnew\u201d price\u2014rise',
    ]);
  });

  it('marks each piece around an ellipsis, in order, and ignores punctuation at the ends', () => {
    const passage = 'Revenue grew. Costs grew faster. Margins fell by half.';
    expect(marked(passage, '"Revenue grew ... margins fell."')).toEqual(['Revenue grew', 'Margins fell']);
    expect(quoteRanges(passage, 'revenue grew \u2026 margins fell')).toEqual([
      { start: 0, end: 12 },
      { start: 33, end: 45 },
    ]);
  });

  it('marks the first place the words stand, and a piece after an ellipsis only after the piece before', () => {
    const passage = 'margins fell. costs rose. then costs rose and margins fell';
    expect(quoteRanges(passage, 'costs rose ... margins fell')).toEqual([
      { start: 14, end: 24 },
      { start: 46, end: 58 },
    ]);
  });

  it('finds nothing for a changed word, a piece out of order, or a quote of punctuation only', () => {
    const passage = 'Twelve people, two of them on call each week.';
    expect(quoteRanges(passage, 'Twelve people, three of them on call')).toBeNull();
    expect(quoteRanges(passage, 'each week ... twelve people')).toBeNull();
    expect(quoteRanges(passage, '...')).toBeNull();
  });

  it('keeps characters outside the basic plane whole inside a mark', () => {
    const passage = 'Sales \u{1F4C8} grew';
    expect(marked(passage, 'sales \u{1F4C8}')).toEqual(['Sales \u{1F4C8}']);
  });

  it('cuts the passage into parts that put it back together', () => {
    const passage = 'one two three four';
    const parts = markedParts(passage, [
      { start: 8, end: 13 },
      { start: 0, end: 3 },
    ]);
    expect(parts).toEqual([
      { text: 'one', marked: true },
      { text: ' two ', marked: false },
      { text: 'three', marked: true },
      { text: ' four', marked: false },
    ]);
    expect(parts.map((p) => p.text).join('')).toBe(passage);
  });
});
