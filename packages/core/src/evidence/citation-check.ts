import { type Citation, EVIDENCE_CITATION_PATTERN } from '@verdict/contracts';
import { quoteOffsetIn } from './quote-match.ts';

/** A citation as a turn wrote it: the passage it names and the words it quotes, if any. */
export type CitationMention = { evidenceId: string; quote: string | null };

/**
 * The citations a turn's text makes, in the order written, each (passage, quote) once: `[E3]`, and
 * `"exact words" [E3]` when a quoted span stands right before the tag.
 */
export function citationsInText(text: string): CitationMention[] {
  const seen = new Set<string>();
  const mentions: CitationMention[] = [];
  for (const match of text.matchAll(EVIDENCE_CITATION_PATTERN)) {
    const quote = (match[1] ?? match[2] ?? '').trim() || null;
    const mention = { evidenceId: `E${match[3]}`, quote };
    const key = `${mention.evidenceId}\u0000${quote ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    mentions.push(mention);
  }
  return mentions;
}

/**
 * The mentions merged with citations the provider grounded itself (Anthropic's): a grounded citation's
 * words replace a bare `[E3]` of the text for the same passage, and anything else is added once.
 */
export function withGrounded(
  mentions: readonly CitationMention[],
  grounded: readonly { evidenceId: string; quote: string }[],
): CitationMention[] {
  const merged = mentions.filter(
    (mention) => mention.quote !== null || !grounded.some((g) => g.evidenceId === mention.evidenceId),
  );
  for (const citation of grounded) {
    const known = merged.some((m) => m.evidenceId === citation.evidenceId && m.quote === citation.quote);
    if (!known) merged.push({ evidenceId: citation.evidenceId, quote: citation.quote });
  }
  return merged;
}

/**
 * Each mention checked against the debate's corpus: verified when its passage exists (`passageText` knows
 * it) and its quote, if any, occurs in that passage (quote-match.ts). A failed citation is reported, not
 * dropped: the turn keeps its text and says which citations did not hold.
 */
export function checkCitations(
  mentions: readonly CitationMention[],
  passageText: (evidenceId: string) => string | undefined,
): Citation[] {
  return mentions.map(({ evidenceId, quote }) => {
    const text = passageText(evidenceId);
    const verified = text !== undefined && (quote === null || quoteOffsetIn(text, quote) !== null);
    return { evidenceId, quote, verified };
  });
}
