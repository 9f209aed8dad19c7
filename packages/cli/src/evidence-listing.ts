import type { DebateEvidence, EvidencePassage, PassageCitation } from '@verdict/sdk';
import { oneLine, QUOTE_WIDTH, sourceLabel } from './sources.ts';

/** How much of each passage's text the listing shows (`--json` has it whole). */
export const PASSAGE_EXCERPT_WIDTH = 160;

/** Passages a turn cited, verified or not: what `verdict evidence --cited` keeps. */
export const citedPassages = (evidence: DebateEvidence): DebateEvidence => ({
  ...evidence,
  passages: evidence.passages.filter((passage) => passage.citations.length > 0),
});

const citationLine = (citation: PassageCitation) => {
  const quote = citation.quote === null ? '' : `: "${oneLine(citation.quote, QUOTE_WIDTH)}"`;
  return `  cited by ${citation.claimId}${quote} (${citation.verified ? 'verified' : 'unverified'})`;
};

function passageLines(passage: EvidencePassage): string[] {
  const lines = [
    `[${passage.evidenceId}] ${sourceLabel(passage.source)}, characters ${passage.start}–${passage.end}`,
    `  "${oneLine(passage.text, PASSAGE_EXCERPT_WIDTH)}"`,
    ...passage.citations.map(citationLine),
  ];
  if (passage.supports.length > 0) lines.push(`  supports ${passage.supports.join(', ')}`);
  if (passage.undercuts.length > 0) lines.push(`  undercuts ${passage.undercuts.join(', ')}`);
  return lines;
}

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/**
 * What `verdict evidence <id>` prints: a summary line over the whole corpus, then each passage (with
 * `citedOnly`, each a turn cited) with its source and where it lies in it, the start of its text, every
 * citation of it (checked or not) and the claims it bears on.
 */
export function evidenceLines(evidence: DebateEvidence, options: { citedOnly?: boolean } = {}): string[] {
  if (evidence.evidence === 'off') {
    return [
      'evidence off: the debate ran without the evidence engine ' +
        '(its attachments went to the agents as excerpts), so it has no passages',
    ];
  }
  const sources = new Set(evidence.passages.map((p) => JSON.stringify(p.source)));
  const shown = options.citedOnly ? citedPassages(evidence).passages : evidence.passages;
  const cited = evidence.passages.filter((p) => p.citations.length > 0).length;
  const lines = [
    `evidence on: ${count(evidence.passages.length, 'passage')} from ${count(sources.size, 'source')}, ${cited} cited`,
  ];
  for (const passage of shown) lines.push('', ...passageLines(passage));
  return lines;
}
