import type Anthropic from '@anthropic-ai/sdk';
import { evidenceTag } from '@verdict/contracts';
import { quoteOffsetIn } from '@verdict/core';
import type { EvidenceDocument, GroundedCitation } from './port.ts';

/**
 * Citations a provider grounded itself (Anthropic's documents with citations enabled) turned into the
 * debate's own: each mapped to the passage that holds its words, and the answer's text tagged `[E<n>]` where
 * they support it, so the transcript shows them like a debater's own tags.
 */

/** A `char_location` citation as Anthropic streams it (the SDK's CitationCharLocation, the fields we read). */
export type CharLocation = {
  cited_text: string;
  document_index: number;
  start_char_index: number;
  end_char_index: number;
};

/**
 * The passage a provider's citation is grounded in, and the words it quotes; null when none of the
 * request's documents holds them. The words decide, not the numbers: a citation whose offsets cut the cited
 * text out of its document is taken as it is; one whose offsets disagree with its document is kept only if
 * its words still occur there (under the engine's own quote tolerance, core's quoteOffsetIn), or else in
 * another of the request's documents, whose passage it is then mapped to. Words found in none are dropped:
 * the adapter tags no passage for them and returns no citation, as nothing in the debate backs them.
 */
export function groundCitation(
  citation: CharLocation,
  documents: readonly EvidenceDocument[],
): GroundedCitation | null {
  const quote = citation.cited_text;
  if (!quote.trim()) return null;
  const named = documents[citation.document_index];
  if (named && named.text.slice(citation.start_char_index, citation.end_char_index) === quote) {
    return { evidenceId: named.evidenceId, quote };
  }
  const holder = [named, ...documents].find(
    (document) => document && quoteOffsetIn(document.text, quote) !== null,
  );
  return holder ? { evidenceId: holder.evidenceId, quote } : null;
}

/**
 * A text block with the tags of the passages that support it, once each and after its words (before any
 * trailing whitespace, so the next block reads on): `the pilot cut churn [E3]`. A tag the block already
 * has (the model wrote it) is not repeated.
 */
export function tagBlock(text: string, evidenceIds: readonly string[]): string {
  const tags = [...new Set(evidenceIds)]
    .map(evidenceTag)
    .filter((tag) => !text.includes(tag))
    .join(' ');
  if (!tags) return text;
  const body = text.trimEnd();
  return `${body}${body ? ' ' : ''}${tags}${text.slice(body.length)}`;
}

type Cited = Anthropic.Messages.CitationsDelta['citation'];

/**
 * The answer's text blocks as they stream, by index, with the citations each received (in its start event
 * or as citations_delta events, before or after its text): joined at the end, each block followed by the
 * tags of the passages that support it.
 */
export class GroundedAnswer {
  private readonly blocks = new Map<number, { text: string; grounded: GroundedCitation[] }>();
  private readonly documents: readonly EvidenceDocument[];

  constructor(documents: readonly EvidenceDocument[]) {
    this.documents = documents;
  }

  start(index: number, block: { text: string; citations?: Cited[] | null }) {
    this.at(index).text += block.text;
    for (const citation of block.citations ?? []) this.cite(index, citation);
  }

  text(index: number, delta: string) {
    this.at(index).text += delta;
  }

  cite(index: number, citation: Cited) {
    if (citation.type !== 'char_location') return;
    const grounded = groundCitation(citation, this.documents);
    if (grounded) this.at(index).grounded.push(grounded);
  }

  joined(): string {
    return this.ordered()
      .map((block) =>
        tagBlock(
          block.text,
          block.grounded.map((g) => g.evidenceId),
        ),
      )
      .join('');
  }

  /** Each (passage, quote) once, in the order the answer cites them. */
  citations(): GroundedCitation[] {
    const seen = new Set<string>();
    return this.ordered()
      .flatMap((block) => block.grounded)
      .filter(({ evidenceId, quote }) => {
        const key = `${evidenceId}\u0000${quote}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
  }

  private ordered() {
    return [...this.blocks.entries()].sort(([a], [b]) => a - b).map(([, block]) => block);
  }

  private at(index: number) {
    let block = this.blocks.get(index);
    if (!block) {
      block = { text: '', grounded: [] };
      this.blocks.set(index, block);
    }
    return block;
  }
}
