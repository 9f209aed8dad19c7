import type { Citation } from './contracts.ts';

/**
 * What the engine found for one `[E3]` of a turn: `verified` (the passage exists and the quote is in it),
 * `unverified` (kept in the text, but the quote is not in the passage or the passage does not exist), or
 * `unchecked` when the turn carries no check for it (a debate without the evidence engine).
 */
export type CitationCheck = { status: 'verified' | 'unverified' | 'unchecked'; quote: string | null };

/**
 * The check of a tag as written (`evidenceId`, and the quote before it or null), among the turn's checked
 * citations. The engine keeps each (passage, quote) once, and where a provider grounded the citation itself
 * a bare tag's check carries the provider's quote: a bare tag with no check of its own takes the passage's.
 */
export function citationCheckOf(
  citations: readonly Citation[] | undefined,
  evidenceId: string,
  quote: string | null,
): CitationCheck {
  const same = citations?.find((c) => c.evidenceId === evidenceId && c.quote === quote);
  const grounded = quote === null ? citations?.find((c) => c.evidenceId === evidenceId) : undefined;
  const check = same ?? grounded;
  if (!check) return { status: 'unchecked', quote };
  return { status: check.verified ? 'verified' : 'unverified', quote: check.quote };
}
