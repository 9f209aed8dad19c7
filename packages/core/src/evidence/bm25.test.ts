import { describe, expect, it } from 'vitest';
import { addToTermIndex, emptyTermIndex, rankByTerms } from './bm25.ts';

/** An index of passages given as lexeme lists (repeats count), all English unless said. */
function indexOf(passages: Record<number, string[] | { language: string; lexemes: string[] }>) {
  const index = emptyTermIndex();
  for (const [number, passage] of Object.entries(passages)) {
    const { language, lexemes } = Array.isArray(passage)
      ? { language: 'english', lexemes: passage }
      : passage;
    const counts = new Map<string, number>();
    for (const lexeme of lexemes) counts.set(lexeme, (counts.get(lexeme) ?? 0) + 1);
    addToTermIndex(index, {
      number: Number(number),
      language,
      lexemes: [...counts.keys()],
      frequencies: [...counts.values()],
    });
  }
  return index;
}
const english = (...lexemes: string[]) => new Map([['english', lexemes]]);
const none = () => false;
const numbers = (ranked: { number: number }[]) => ranked.map((r) => r.number);

describe('rankByTerms (BM25)', () => {
  const filler = (n: number) => Array.from({ length: n }, (_, i) => `filler${i}`);

  it('matches any of the query words, and ranks a rare word above a common one', () => {
    const index = indexOf({
      1: ['team', 'quarter', ...filler(8)],
      2: ['team', 'frankfurt', ...filler(8)],
      3: ['team', 'quarter', ...filler(8)],
      4: ['team', 'quarter', ...filler(8)],
      5: ['lisbon', ...filler(9)],
    });
    // "frankfurt" is in one passage, "quarter" in three, "team" in four: 2 has the rarest word.
    expect(numbers(rankByTerms(index, english('team', 'quarter', 'frankfurt', 'absent'), none, 10))).toEqual([
      2, 1, 3, 4,
    ]);
  });

  it('gives repeats diminishing weight and favours the shorter of two passages with the same matches', () => {
    const index = indexOf({
      1: ['churn', ...filler(9)],
      2: ['churn', 'churn', 'churn', ...filler(7)],
      3: ['churn', ...filler(29)],
      4: filler(10),
    });
    const ranked = rankByTerms(index, english('churn'), none, 10);
    expect(numbers(ranked)).toEqual([2, 1, 3]);
    // Three occurrences are worth less than three times one.
    expect(ranked[0]!.score).toBeLessThan(3 * ranked[1]!.score);
  });

  it('keeps languages apart, leaves out skipped passages and stops at the limit', () => {
    const index = indexOf({
      1: { language: 'german', lexemes: ['preis', 'kund'] },
      2: ['price', 'customer'],
      3: ['price'],
      4: ['price', 'customer', 'customer'],
    });
    expect(numbers(rankByTerms(index, english('preis'), none, 10))).toEqual([]);
    expect(numbers(rankByTerms(index, new Map([['german', ['preis']]]), none, 10))).toEqual([1]);
    expect(numbers(rankByTerms(index, english('price', 'customer'), (n) => n === 4, 10))).toEqual([2, 3]);
    expect(numbers(rankByTerms(index, english('price', 'customer'), none, 1))).toEqual([4]);
  });
});
