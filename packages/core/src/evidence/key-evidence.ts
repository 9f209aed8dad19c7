import type { Citation, CitedEvidence, EvidenceSource } from '@verdict/contracts';
import { quoteOffsetIn } from './quote-match.ts';

/** What key evidence needs of a passage: its id, source, text and where the text starts in the source. */
export type PassageText = { evidenceId: string; source: EvidenceSource; text: string; start: number };

/** A turn's claim and the citations stored with it. */
export type CitingClaim = { claimId: string; citations: readonly Citation[] };

/** Key evidence a verdict lists at most: the passages most claims leaned on. */
export const KEY_EVIDENCE_MAX = 8;

/** Characters of a passage's opening that stand for it when a claim cited it without quoting. */
const OPENING_CHARS = 200;

/**
 * A passage's opening: its first sentence, or its first OPENING_CHARS characters cut at a word, for a
 * citation that named the passage without quoting it.
 */
export function openingOf(text: string): string {
  const sentence = /^[\s\S]*?[.!?](?=\s|$)/.exec(text)?.[0] ?? text;
  if (sentence.length <= OPENING_CHARS) return sentence.trim();
  const cut = text.slice(0, OPENING_CHARS);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), 1)).trim()}`;
}

/**
 * The verdict's key evidence, built from the turns' verified citations and nothing else (the judge never
 * writes it when the evidence engine is on): one entry per passage and quote, with every claim that cited
 * it (quotes starting at the same place are one entry), those cited by the most claims first (then in the order first cited), at most KEY_EVIDENCE_MAX.
 */
export function keyEvidenceFrom(
  claims: readonly CitingClaim[],
  passages: ReadonlyMap<string, PassageText>,
): CitedEvidence[] {
  const entries = new Map<string, CitedEvidence>();
  for (const claim of claims) {
    for (const citation of claim.citations) {
      const passage = passages.get(citation.evidenceId);
      if (!citation.verified || !passage) continue;
      const quote = citation.quote ?? openingOf(passage.text);
      const within = quoteOffsetIn(passage.text, quote);
      if (within === null) continue;
      // Quotes of one passage that start at the same word are one piece of evidence.
      const key = `${citation.evidenceId}@${within}`;
      const entry = entries.get(key) ?? {
        evidenceId: citation.evidenceId,
        source: passage.source,
        quote,
        offset: passage.start + within,
        supports: [],
        verified: true,
      };
      if (!entry.supports.includes(claim.claimId)) entry.supports.push(claim.claimId);
      entries.set(key, entry);
    }
  }
  return [...entries.values()]
    .map((entry, order) => ({ entry, order }))
    .sort((a, b) => b.entry.supports.length - a.entry.supports.length || a.order - b.order)
    .slice(0, KEY_EVIDENCE_MAX)
    .map(({ entry }) => entry);
}
