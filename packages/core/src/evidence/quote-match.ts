/**
 * How a quoted span is found in a passage, with the tolerance the evidence engine documents
 * (ARCHITECTURE.md, "Evidence engine"): case, Unicode forms, curly and straight quotes, dash variants and
 * runs of whitespace do not count; an ellipsis ("..." or "…") stands for omitted words, so the pieces
 * around it must occur in order; punctuation at either end of the quote is ignored. Nothing else is
 * forgiven: a changed, added or missing word fails.
 */

/** A text folded for comparison, with where each of its characters came from in the original. */
type Folded = { text: string; origin: number[] };

const QUOTES: Record<string, string> = { '\u2018': "'", '\u2019': "'", '\u201c': '"', '\u201d': '"' };
const DASHES = /[\u2010-\u2015\u2212]/;

function fold(original: string): Folded {
  let text = '';
  const origin: number[] = [];
  let pendingSpace = false;
  for (let i = 0; i < original.length; i++) {
    let ch = original[i] as string;
    if (/\s/.test(ch)) {
      pendingSpace = text.length > 0;
      continue;
    }
    ch = QUOTES[ch] ?? (DASHES.test(ch) ? '-' : ch);
    const lower = ch.normalize('NFKC').toLowerCase();
    if (pendingSpace) {
      text += ' ';
      origin.push(i);
      pendingSpace = false;
    }
    for (const c of lower) {
      text += c;
      origin.push(i);
    }
  }
  return { text, origin };
}

const ELLIPSIS = /\s*(?:\.\.\.|\u2026)\s*/;
const EDGE_PUNCTUATION = /^[\s.,;:!?'"()[\]-]+|[\s.,;:!?'"()[\]-]+$/g;

/** The quote's pieces as compared: folded, split at ellipses, trimmed of edge punctuation, empty ones dropped. */
function piecesOf(quote: string): string[] {
  return quote
    .split(ELLIPSIS)
    .map((piece) => fold(piece.replace(EDGE_PUNCTUATION, '')).text)
    .filter((piece) => piece.length > 0);
}

/**
 * Where `quote` starts in `passage` (a character index of the original passage), or null when it does not
 * occur there under the tolerance above. A quote with no words (only an ellipsis or punctuation) never does.
 */
export function quoteOffsetIn(passage: string, quote: string): number | null {
  const pieces = piecesOf(quote);
  if (pieces.length === 0) return null;
  const folded = fold(passage);
  // Each piece is looked for after the one before; the first piece tries every place it occurs, so a
  // later piece that only follows a later occurrence is still found.
  let from = folded.text.indexOf(pieces[0] as string);
  while (from >= 0) {
    let at = from + (pieces[0] as string).length;
    let whole = true;
    for (const piece of pieces.slice(1)) {
      const next = folded.text.indexOf(piece, at);
      if (next < 0) {
        whole = false;
        break;
      }
      at = next + piece.length;
    }
    if (whole) return folded.origin[from] ?? null;
    from = folded.text.indexOf(pieces[0] as string, from + 1);
  }
  return null;
}
