import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PASSAGE_SIZES, type SplitPassage, splitPassages } from './passage-splitter.ts';

const sentence = (i: number) =>
  `Sentence ${i} says that the quarterly churn moved by ${i % 7} points in region ${i % 5}. `;
const paragraph = (from: number, sentences: number) =>
  Array.from({ length: sentences }, (_, k) => sentence(from + k))
    .join('')
    .trim();

/** Every non-space character of `source` lies in some passage. */
const uncovered = (source: string, passages: SplitPassage[]) => {
  const covered = new Uint8Array(source.length);
  for (const p of passages) covered.fill(1, p.start, p.end);
  return [...source].flatMap((_, i) => (covered[i] || /\s/.test(source[i] ?? '') ? [] : [i]));
};

describe('splitPassages', () => {
  it('keeps a short text whole, trimmed, with its offsets', () => {
    const source = '\n  Churn doubled after the price rise.  \n';
    expect(splitPassages(source)).toEqual([
      { text: 'Churn doubled after the price rise.', start: 3, end: 38 },
    ]);
  });

  it('gives nothing for an empty or blank text', () => {
    expect(splitPassages('')).toEqual([]);
    expect(splitPassages(' \n\n\t ')).toEqual([]);
  });

  it('ends passages at paragraph breaks near the target when there are some', () => {
    // Paragraphs of about 1,100 characters: each passage should be one paragraph, cut at its blank line.
    const paragraphs = Array.from({ length: 6 }, (_, i) => paragraph(i * 20, 13));
    const source = paragraphs.join('\n\n');
    const passages = splitPassages(source);
    expect(passages.length).toBeGreaterThanOrEqual(5);
    for (const p of passages.slice(0, -1)) {
      expect(source.slice(p.end, p.end + 2)).toBe('\n\n');
      expect(p.text.length).toBeLessThanOrEqual(PASSAGE_SIZES.max);
    }
  });

  it('ends passages at sentence ends in a text without paragraphs, and overlaps the next by about a sentence', () => {
    const source = paragraph(0, 120);
    const passages = splitPassages(source);
    for (const [i, p] of passages.entries()) {
      expect(p.text.endsWith('.')).toBe(true);
      expect(p.text).toMatch(/^Sentence \d+/);
      if (i < passages.length - 1) expect(Math.abs(p.text.length - PASSAGE_SIZES.target)).toBeLessThan(100);
      const next = passages[i + 1];
      if (next) {
        expect(next.start).toBeLessThan(p.end);
        expect(p.end - next.start).toBeGreaterThan(40);
        expect(p.end - next.start).toBeLessThanOrEqual(2 * PASSAGE_SIZES.overlap);
      }
    }
  });

  it('cuts text without spaces at the maximum, never inside a surrogate pair', () => {
    const source = '\u{1F600}'.repeat(2_000);
    const passages = splitPassages(source);
    expect(passages.length).toBeGreaterThan(2);
    for (const p of passages) {
      expect(p.text.length).toBeLessThanOrEqual(PASSAGE_SIZES.max);
      expect(p.text.length % 2).toBe(0);
    }
    expect(uncovered(source, passages)).toEqual([]);
  });

  it('keeps its promises on any text: exact offsets, full cover, no passage over the maximum, moving forward', () => {
    const word = fc.oneof(
      fc.stringMatching(/^[a-zà-ü]{1,12}$/),
      fc.constantFrom('.', '!', '?', '\n', '\n\n', '…', '"', '\u{1F600}', '。'),
    );
    const text = fc.oneof(
      fc.array(word, { maxLength: 1_500 }).map((words) => words.join(' ')),
      fc.string({ unit: 'grapheme', maxLength: 5_000 }),
    );
    const sizes = fc.record({
      target: fc.integer({ min: 20, max: 1_500 }),
      extra: fc.integer({ min: 0, max: 800 }),
      overlapShare: fc.double({ min: 0, max: 0.2, noNaN: true }),
    });
    fc.assert(
      fc.property(text, sizes, (source, { target, extra, overlapShare }) => {
        const options = { target, max: target + extra, overlap: Math.floor(target * overlapShare) };
        const passages = splitPassages(source, options);
        for (const [i, p] of passages.entries()) {
          expect(source.slice(p.start, p.end)).toBe(p.text);
          expect(p.text.length).toBeGreaterThan(0);
          expect(p.text.length).toBeLessThanOrEqual(options.max);
          expect(p.text).toBe(p.text.trim());
          if (i > 0) {
            expect(p.start).toBeGreaterThan(passages[i - 1]!.start);
            expect(p.end).toBeGreaterThan(passages[i - 1]!.end);
          }
        }
        expect(uncovered(source, passages)).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});
