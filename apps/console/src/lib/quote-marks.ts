/**
 * Where a quote stands in a passage, to mark it there: found with the engine's tolerance (ARCHITECTURE.md,
 * "Evidence engine"): case, Unicode forms, curly or straight quotes, dash variants and runs of whitespace do
 * not count; an ellipsis stands for omitted words, so each piece around it is marked on its own, in order;
 * punctuation at either end is ignored. A quote the engine could not verify is usually not found here either.
 */

/** A text folded for comparison, with where each folded character came from in the original. */
type Folded = { text: string; origin: number[] };

const QUOTES: Record<string, string> = { '\u2018': "'", '\u2019': "'", '\u201c': '"', '\u201d': '"' };
const DASHES = /[\u2010-\u2015\u2212]/;
const ELLIPSIS = /\s*(?:\.\.\.|\u2026)\s*/;
const EDGE_PUNCTUATION = /^[\s.,;:!?'"()[\]-]+|[\s.,;:!?'"()[\]-]+$/g;

function fold(original: string): Folded {
  let text = '';
  const origin: number[] = [];
  let pendingSpace = false;
  let index = 0;
  for (const char of original) {
    const at = index;
    index += char.length;
    if (/\s/.test(char)) {
      pendingSpace = text.length > 0;
      continue;
    }
    const plain = QUOTES[char] ?? (DASHES.test(char) ? '-' : char);
    if (pendingSpace) {
      text += ' ';
      origin.push(at);
      pendingSpace = false;
    }
    // One origin per UTF-16 unit, as indexOf counts them.
    for (const unit of plain.normalize('NFKC').toLowerCase().split('')) {
      text += unit;
      origin.push(at);
    }
  }
  return { text, origin };
}

const piecesOf = (quote: string) =>
  quote
    .split(ELLIPSIS)
    .map((piece) => fold(piece.replace(EDGE_PUNCTUATION, '')).text)
    .filter((piece) => piece.length > 0);

/** A span of the passage's own text, [start, end) in characters. */
export type Range = { start: number; end: number };

/**
 * The spans of `passage` that `quote` stands for (one, or one per piece around an ellipsis), or null when
 * the quote does not occur in it.
 *
 * @example
 * quoteRanges('Churn doubled after the price rise.', 'churn  DOUBLED') // [{ start: 0, end: 13 }]
 */
export function quoteRanges(passage: string, quote: string): Range[] | null {
  const pieces = piecesOf(quote);
  if (pieces.length === 0) return null;
  const folded = fold(passage);
  // A folded piece ends inside the original character its last folded character came from.
  const rangeOf = (from: number, length: number): Range => {
    const lastChar = folded.origin[from + length - 1] ?? 0;
    const lastWidth = (passage.codePointAt(lastChar) ?? 0) > 0xffff ? 2 : 1;
    return { start: folded.origin[from] ?? 0, end: lastChar + lastWidth };
  };
  // Each piece after the one before, each at its first place there: taking the earliest place of a piece
  // leaves the most room for the next, so a quote that occurs in order is always found this way.
  const ranges: Range[] = [];
  let at = 0;
  for (const piece of pieces) {
    const next = folded.text.indexOf(piece, at);
    if (next < 0) return null;
    ranges.push(rangeOf(next, piece.length));
    at = next + piece.length;
  }
  return ranges;
}

/** The passage cut at the ranges, each part marked or not, in order: what a page wraps in `<mark>`. */
export function markedParts(passage: string, ranges: readonly Range[]): { text: string; marked: boolean }[] {
  const parts: { text: string; marked: boolean }[] = [];
  let at = 0;
  for (const { start, end } of [...ranges].sort((a, b) => a.start - b.start)) {
    if (start < at) continue;
    if (start > at) parts.push({ text: passage.slice(at, start), marked: false });
    parts.push({ text: passage.slice(start, end), marked: true });
    at = end;
  }
  if (at < passage.length) parts.push({ text: passage.slice(at), marked: false });
  return parts;
}
