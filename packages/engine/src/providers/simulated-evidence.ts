import { evidenceTag } from '@verdict/contracts';
import type { EvidenceDocument } from './port.ts';
import { pick } from './seeded-random.ts';

/**
 * How the SIMULATED debater cites the passages a turn is given (request.documents), deterministically (the
 * caller seeds `random` by question, agent, round and the passages' ids). The rule, which end-to-end tests
 * rely on:
 *
 * - A turn given passages cites one of them, or two when it was given two or more (seeded, even odds),
 *   and only ever ids it was given.
 * - It quotes the first passage it cites RIGHT: 6–12 consecutive words copied verbatim from it (fewer when
 *   the passage has no such run), then `[E<n>]`: `"exact words" [E3]`.
 * - It quotes the second passage it cites (the first again when it cites one) WRONG: another run of the
 *   passage with one word changed to a word the passage does not contain anywhere (case aside), so no
 *   tolerance of the engine's check (case, whitespace, quotes, dashes, ellipses, edge punctuation) can
 *   match it.
 * - About half the turns (seeded) also cite the first passage again without a quote: `… is real [E3].`
 *
 * So every turn given a passage it can quote holds at least one right and at least one wrong quote, and
 * every simulated debate whose turns get passages does too — with one turn or many, whichever turns fail.
 * A passage can be quoted when it has a word outside double quotes and brackets; a turn whose passages have
 * none only cites the first bare.
 */
export type EvidenceLines = {
  /** Sentences to weave into the turn, in order: the right quote, then the wrong one. */
  quoted: string[];
  /** A bare tag to append to one of the turn's own points (`the cost of waiting is real [E3]`), or null. */
  bare: string | null;
};

export function evidenceLines(documents: readonly EvidenceDocument[], random: () => number): EvidenceLines {
  const quotable = documents.filter((document) => quotableRun(document.text).length > 0);
  if (quotable.length === 0) {
    const first = documents[0];
    return { quoted: [], bare: first ? evidenceTag(first.evidenceId) : null };
  }
  const first = pick(random, quotable);
  const rest = quotable.filter((document) => document !== first);
  const second = rest.length > 0 && random() < 0.5 ? pick(random, rest) : first;
  const right = quoteOf(first.text, random);
  const wrong = misquote(quoteOf(second.text, random), second.text, random);
  const bare = random() < 0.5 ? evidenceTag(first.evidenceId) : null;
  return {
    quoted: [
      pick(random, RIGHT_FRAMES)(sourceName(first.title), `"${right}" ${evidenceTag(first.evidenceId)}`),
      pick(random, WRONG_FRAMES)(sourceName(second.title), `"${wrong}" ${evidenceTag(second.evidenceId)}`),
    ],
    bare,
  };
}

type Frame = (source: string, citation: string) => string;

const RIGHT_FRAMES: readonly Frame[] = [
  (_, citation) => `The evidence bears this out: ${citation}.`,
  (source, citation) => `As ${source} puts it, ${citation}.`,
  (_, citation) => `The record is plain on this: ${citation}.`,
];

const WRONG_FRAMES: readonly Frame[] = [
  (source, citation) => `${source} also says ${citation}.`,
  (_, citation) => `Elsewhere we read ${citation}.`,
  (_, citation) => `And note this line: ${citation}.`,
];

/** A title as the turn names it: nothing in it may read as a quote or a tag. */
const sourceName = (title: string) => `"${title.replace(/["\u201c\u201d[\]]/g, '').trim() || 'the source'}"`;

type Word = { start: number; end: number };

/**
 * A word that may stand in a quote: with a letter or digit (punctuation alone is trimmed off a quote's
 * edges), and no quote marks (they would end it), brackets (tags) or ellipses.
 */
const CLEAN_WORD = /^(?=.*[\p{L}\p{N}])[^"\u201c\u201d[\]\u2026]+$/u;

/**
 * The longest run of words a quote can be cut from, preferring the first such run: consecutive clean words
 * on one line (a quote the engine reads back may not cross a line), with no "..." inside.
 */
function quotableRun(text: string): Word[] {
  let best: Word[] = [];
  let run: Word[] = [];
  for (const match of text.matchAll(/\S+/g)) {
    const word = { start: match.index, end: match.index + match[0].length };
    const clean = CLEAN_WORD.test(match[0]) && !match[0].includes('...');
    const previous = run.at(-1);
    const sameLine = previous !== undefined && !/[\n\r]/.test(text.slice(previous.end, word.start));
    if (!clean) run = [];
    else run = sameLine ? [...run, word] : [word];
    if (run.length > best.length) best = run;
  }
  return best;
}

/** 6–12 consecutive words of `text` (all of its longest run when shorter), exactly as they stand in it. */
function quoteOf(text: string, random: () => number): string {
  const run = quotableRun(text);
  let length = Math.min(run.length, 6 + Math.floor(random() * 7));
  const from = Math.floor(random() * (run.length - length + 1));
  const cut = (n: number) => text.slice(run[from]?.start, run[from + n - 1]?.end);
  // A quote stays short enough to read inline (and well within what the citation pattern reads back).
  while (length > 1 && cut(length).length > 300) length--;
  // Trailing punctuation is not part of the words; what is left still stands verbatim in the passage.
  return cut(length).replace(/[.,;:!?)]+$/, '') || cut(length);
}

const STAND_INS = ['never', 'rarely', 'tripled', 'halved', 'nobody', 'seldom', 'vanished', 'quadrupled'];

/**
 * The quote with one word (an inner one when it has three or more) changed to a stand-in the passage does
 * not contain anywhere, case aside: the changed quote cannot occur in the passage under any folding of
 * case, whitespace or punctuation.
 */
function misquote(quote: string, passage: string, random: () => number): string {
  const haystack = passage.normalize('NFKC').toLowerCase();
  const offset = Math.floor(random() * STAND_INS.length);
  let standIn = '';
  for (let i = 0; !standIn || haystack.includes(standIn); i++) {
    const base = STAND_INS[(offset + i) % STAND_INS.length] as string;
    standIn = i < STAND_INS.length ? base : `${base}${i}`;
  }
  const words = [...quote.matchAll(/\S+/g)];
  const inner = words.length >= 3 ? words.slice(1, -1) : words;
  const lettered = inner.filter((word) => /\p{L}/u.test(word[0]));
  const target = pick(random, lettered.length > 0 ? lettered : inner);
  const replaced = target[0].replace(/[\p{L}\p{N}'’-]+/u, (found) =>
    /^\p{Lu}/u.test(found) ? capitalised(standIn) : standIn,
  );
  return `${quote.slice(0, target.index)}${replaced}${quote.slice(target.index + target[0].length)}`;
}

const capitalised = (word: string) => `${word[0]?.toUpperCase() ?? ''}${word.slice(1)}`;
