import { type EvidenceSource, isCitedEvidence, type KeyEvidence } from '@verdict/sdk';

/** Quotes longer than this are cut on screen (`--json` has them whole); a cut ends in "…". */
export const QUOTE_WIDTH = 200;

/** Text on one line, cut at `width` characters with an ellipsis. */
export const oneLine = (text: string, width: number) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
};

/** A source as a reader finds it again: its title, and a fetched page's address beside it. */
export function sourceLabel(source: EvidenceSource): string {
  const url = source.kind === 'page' ? source.url : undefined;
  return url && url !== source.title ? `${source.title} (${url})` : source.title;
}

/**
 * The "Sources" printed under a verdict: each key evidence the engine cited and verified as
 * `[E3] "quote" — source` and the claims that cited it. A verdict whose key evidence the judge wrote
 * (evidence engine off) prints none, as before; one with the engine on but nothing verified says so.
 */
export function sourcesLines(verdict: { keyEvidence: KeyEvidence[]; evidence?: 'on' | 'off' }): string[] {
  const cited = verdict.keyEvidence.filter(isCitedEvidence);
  if (cited.length === 0)
    return verdict.evidence === 'on' ? ['Sources', '  none: no citation in the debate was verified'] : [];
  const lines = ['Sources'];
  for (const entry of cited) {
    const tag = `[${entry.evidenceId}]`;
    lines.push(`  ${tag} "${oneLine(entry.quote, QUOTE_WIDTH)}" — ${sourceLabel(entry.source)}`);
    // Under the quote, aligned with it.
    if (entry.supports.length > 0)
      lines.push(`  ${' '.repeat(tag.length)} cited by ${entry.supports.join(', ')}`);
  }
  return lines;
}
