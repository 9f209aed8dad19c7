import { CITATION_PATTERN, EVIDENCE_CITATION_PATTERN } from '@verdict/contracts/tags';
import { claimLabel } from './claim-label.ts';

/**
 * A piece of a turn's text as a page shows it: plain words, a citation of a passage (`[E3]`), or a tag
 * naming the earlier claim the turn answers or builds on (`[rebuts a1-r1-cfo]`).
 */
export type TurnSegment =
  | { kind: 'text'; text: string }
  /** `quote`: the words quoted right before the tag (`"exact words" [E3]`), which stay in the text too. */
  | { kind: 'evidence'; evidenceId: string; quote: string | null }
  | { kind: 'claim'; relation: 'rebuts' | 'supports'; claimId: string };

type Found = { start: number; end: number; segment: TurnSegment };

/**
 * A turn's text cut into segments, in order, read with the same patterns the engine reads citations with:
 * only the tags become segments of their own, so a quote before an `[E3]` stays text the reader sees. Tags
 * written loosely (`[Supports: a1-r1-CFO]`) come out in the contract's form.
 *
 * @example
 * turnSegments('Costs rise [rebuts a1-r1-cfo]: "twelve people" [E1].')
 * // text 'Costs rise ', claim rebuts a1-r1-cfo, text ': "twelve people" ',
 * // evidence E1 quoting 'twelve people', text '.'
 */
export function turnSegments(text: string): TurnSegment[] {
  const found = [...evidenceTags(text), ...claimTags(text)].sort((a, b) => a.start - b.start);
  const segments: TurnSegment[] = [];
  let at = 0;
  for (const tag of found) {
    if (tag.start < at) continue;
    if (tag.start > at) segments.push({ kind: 'text', text: text.slice(at, tag.start) });
    segments.push(tag.segment);
    at = tag.end;
  }
  if (at < text.length) segments.push({ kind: 'text', text: text.slice(at) });
  return segments;
}

/** Whether a text cites a passage: what makes a page read the debate's passages. */
export const hasEvidenceTag = (text: string) =>
  turnSegments(text).some((segment) => segment.kind === 'evidence');

function* evidenceTags(text: string): Generator<Found> {
  for (const match of text.matchAll(EVIDENCE_CITATION_PATTERN)) {
    const evidenceId = `E${match[3]}`;
    // The pattern's match starts at the quote; the segment is the bracketed tag at its end.
    const end = match.index + match[0].length;
    const quote = (match[1] ?? match[2] ?? '').trim() || null;
    yield { start: end - evidenceId.length - 2, end, segment: { kind: 'evidence', evidenceId, quote } };
  }
}

function* claimTags(text: string): Generator<Found> {
  for (const match of text.matchAll(CITATION_PATTERN)) {
    const relation = (match[1] ?? '').toLowerCase().startsWith('rebut') ? 'rebuts' : 'supports';
    const claimId = (match[2] ?? '').toLowerCase();
    yield {
      start: match.index,
      end: match.index + match[0].length,
      segment: { kind: 'claim', relation, claimId },
    };
  }
}

/**
 * A text with its tags written out in words, for places that show it as plain text (a search hit inside a
 * link): "(rebuts cfo, round 1)" and "(E3)", never the raw tag.
 *
 * @example
 * plainTurnText('Costs rise [rebuts a1-r1-cfo] "as planned" [E1].') // 'Costs rise (rebuts cfo, round 1) "as planned" (E1).'
 */
export function plainTurnText(text: string): string {
  return turnSegments(text)
    .map((segment) => {
      if (segment.kind === 'text') return segment.text;
      if (segment.kind === 'evidence') return `(${segment.evidenceId})`;
      return `(${segment.relation} ${claimLabel(segment.claimId, []).text})`;
    })
    .join('');
}
