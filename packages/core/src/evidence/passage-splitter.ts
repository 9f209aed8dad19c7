/** A passage cut from a source's text: `text === source.slice(start, end)`. */
export type SplitPassage = { text: string; start: number; end: number };

export type SplitOptions = {
  /** The length a passage aims at, in characters (about 300 tokens of English). */
  target: number;
  /** No passage is longer than this. */
  max: number;
  /** About how much of the previous passage's end the next one repeats, so a sentence cut by a boundary is whole in one of them. */
  overlap: number;
};

export const PASSAGE_SIZES: SplitOptions = { target: 1_200, max: 1_800, overlap: 150 };

const PARAGRAPH_BREAK = /\n[ \t\r\f\v]*\n\s*/g;
/** The end of a sentence and the space after it; closing quotes and brackets stay with their sentence. */
const SENTENCE_BREAK = /[.!?\u2026\u3002\uff01\uff1f]["'\u201d\u2019)\]]*\s+/g;
const WORD_BREAK = /\s+/g;
const NOT_SPACE = /\S/;

/**
 * Cuts `source` into passages that a prompt can carry and a reader can check: each ends at a paragraph break
 * near `target` if there is one, else at a sentence end, else between words, and only as a last resort in a
 * word (text without spaces); none is longer than `max`. Each but the first starts about `overlap` characters
 * before the previous one ended, at a sentence start (else a word start). Passages carry their offsets in
 * `source` and are trimmed of surrounding white space; together they cover every other character.
 */
export function splitPassages(source: string, sizes: SplitOptions = PASSAGE_SIZES): SplitPassage[] {
  const passages: SplitPassage[] = [];
  let start = 0;
  while (start < source.length) {
    const end = source.length - start <= sizes.max ? source.length : breakAfter(source, start, sizes);
    const passage = trimmed(source, start, end);
    // One that ends where the previous one did (only white space after the overlap) would add nothing.
    if (passage && passage.end > (passages.at(-1)?.end ?? 0)) passages.push(passage);
    if (end >= source.length) break;
    start = overlapStart(source, start, end, sizes.overlap);
  }
  return passages;
}

/** Where a passage starting at `start` ends: the best break between half the target and the maximum. */
function breakAfter(source: string, start: number, { target, max }: SplitOptions): number {
  const from = start + Math.floor(target / 2);
  const to = start + max;
  const aim = start + target;
  const closest = (positions: number[]) => closestTo(aim, positions, from, to);
  // A paragraph ends where its blank line starts; a sentence right after its punctuation.
  const paragraph = closest(matchesIn(source, PARAGRAPH_BREAK, from, to).map((m) => m.index));
  if (paragraph !== undefined) return paragraph;
  const sentence = closest(matchesIn(source, SENTENCE_BREAK, from, to).map((m) => m.end));
  if (sentence !== undefined) return sentence;
  const word = closest(matchesIn(source, WORD_BREAK, from, to).map((m) => m.index));
  return word ?? notInSurrogatePair(source, to);
}

/**
 * Where the passage after [start, end) starts: the sentence start closest to `overlap` characters before
 * `end`, else the word start closest to it, else exactly there. Always after `start`, so the cut moves on.
 */
function overlapStart(source: string, start: number, end: number, overlap: number): number {
  const aim = end - overlap;
  const from = Math.max(start + 1, end - 2 * overlap);
  const to = Math.min(end - 1, end - Math.floor(overlap / 3));
  if (from > to) return end;
  const closest = (positions: number[]) => closestTo(aim, positions, from, to);
  const sentence = closest(matchesIn(source, SENTENCE_BREAK, from, to).map((m) => m.end));
  if (sentence !== undefined) return sentence;
  const word = closest(matchesIn(source, WORD_BREAK, from, to).map((m) => m.end));
  if (word !== undefined) return word;
  const cut = notInSurrogatePair(source, Math.max(from, aim));
  return cut > start ? cut : end;
}

/** The position within [from, to] closest to `aim` (the earlier of two as close), or undefined. */
function closestTo(aim: number, positions: number[], from: number, to: number): number | undefined {
  let best: number | undefined;
  for (const at of positions) {
    if (at < from || at > to) continue;
    if (best === undefined || Math.abs(at - aim) < Math.abs(best - aim)) best = at;
  }
  return best;
}

/**
 * The matches of `pattern` that start at `from` or later and not after `to`, with where each starts and
 * ends (callers keep the positions they use within [from, to]).
 */
function matchesIn(source: string, pattern: RegExp, from: number, to: number) {
  const found: { index: number; end: number }[] = [];
  const window = new RegExp(pattern.source, 'g');
  window.lastIndex = Math.max(0, from);
  for (let match = window.exec(source); match && match.index <= to; match = window.exec(source)) {
    found.push({ index: match.index, end: match.index + match[0].length });
  }
  return found;
}

/** `at`, moved back one when it would split a surrogate pair (an emoji, a rare CJK character). */
function notInSurrogatePair(source: string, at: number): number {
  const before = source.charCodeAt(at - 1);
  return before >= 0xd800 && before <= 0xdbff ? at - 1 : at;
}

/** [start, end) without white space at either end; null when nothing else is left. */
function trimmed(source: string, start: number, end: number): SplitPassage | null {
  let from = start;
  let to = end;
  while (from < to && !NOT_SPACE.test(source[from] ?? '')) from++;
  while (to > from && !NOT_SPACE.test(source[to - 1] ?? '')) to--;
  return from < to ? { text: source.slice(from, to), start: from, end: to } : null;
}
