/**
 * Okapi BM25 over the lexemes PostgreSQL made of each passage (its tsvector, in its source's language):
 * every query word that occurs counts (an OR), weighted by how rare it is in the corpus (a word in most
 * passages says little), with diminishing returns for repeats and a correction for passage length.
 * Kept per language: a German lexeme never meets an English one, and each language has its own counts.
 */

/** The usual constants (Robertson & Zaragoza, 2009): term-frequency saturation and length normalisation. */
const K1 = 1.2;
const B = 0.75;

/** The passages a lexeme occurs in and how often, as two parallel arrays (small integers: compact in V8). */
type Postings = { numbers: number[]; frequencies: number[] };
type LanguageTerms = { postings: Map<string, Postings>; passages: number; totalLength: number };

export type TermIndex = {
  languages: Map<string, LanguageTerms>;
  /** The highest passage number added. */
  highest: number;
  /** Lexeme occurrences per passage (its length as BM25 counts it). */
  lengths: Map<number, number>;
};

export const emptyTermIndex = (): TermIndex => ({ languages: new Map(), highest: 0, lengths: new Map() });

/** Adds a passage: its lexemes and how often each occurs, in its source's language. */
export function addToTermIndex(
  index: TermIndex,
  passage: { number: number; language: string; lexemes: readonly string[]; frequencies: readonly number[] },
): void {
  let terms = index.languages.get(passage.language);
  if (!terms) {
    terms = { postings: new Map(), passages: 0, totalLength: 0 };
    index.languages.set(passage.language, terms);
  }
  let length = 0;
  passage.lexemes.forEach((lexeme, i) => {
    const frequency = passage.frequencies[i] ?? 1;
    length += frequency;
    const postings = terms.postings.get(lexeme);
    if (postings) {
      postings.numbers.push(passage.number);
      postings.frequencies.push(frequency);
    } else terms.postings.set(lexeme, { numbers: [passage.number], frequencies: [frequency] });
  });
  terms.passages += 1;
  terms.totalLength += length;
  index.lengths.set(passage.number, length);
  index.highest = Math.max(index.highest, passage.number);
}

/**
 * The passages matching any of the query's lexemes (per language, as the query was parsed in each), by
 * BM25 score, best first, `limit` of them; ties go to the lower number. `skip` leaves passages out of the
 * ranking (they still count in the statistics).
 */
export function rankByTerms(
  index: TermIndex,
  queryLexemes: ReadonlyMap<string, readonly string[]>,
  skip: (number: number) => boolean,
  limit: number,
): { number: number; score: number }[] {
  // Passage numbers are dense (1…n): scores in an array by number, and the numbers that have one.
  const scores = new Float64Array(index.highest + 1);
  const scored: number[] = [];
  for (const [language, lexemes] of queryLexemes) {
    const terms = index.languages.get(language);
    if (!terms || terms.passages === 0) continue;
    const averageLength = terms.totalLength / terms.passages;
    for (const lexeme of new Set(lexemes)) {
      const postings = terms.postings.get(lexeme);
      if (!postings) continue;
      const count = postings.numbers.length;
      const idf = Math.log(1 + (terms.passages - count + 0.5) / (count + 0.5));
      for (let i = 0; i < count; i++) {
        const number = postings.numbers[i]!;
        const frequency = postings.frequencies[i]!;
        if (skip(number)) continue;
        const length = index.lengths.get(number) ?? averageLength;
        const saturated = (frequency * (K1 + 1)) / (frequency + K1 * (1 - B + (B * length) / averageLength));
        if (scores[number] === 0) scored.push(number);
        scores[number] = (scores[number] ?? 0) + idf * saturated;
      }
    }
  }
  return scored
    .sort((a, b) => (scores[b] ?? 0) - (scores[a] ?? 0) || a - b)
    .slice(0, limit)
    .map((number) => ({ number, score: scores[number] ?? 0 }));
}
