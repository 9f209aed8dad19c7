import type { DebateEvidence, EvidencePassage } from '@verdict/sdk';
import { describe, expect, it } from 'vitest';
import { citedPassages, evidenceLines, PASSAGE_EXCERPT_WIDTH } from './evidence-listing.ts';

const DEBATE = '8c5d7a43-98f3-4d3f-a7a3-7a1f9a64c1e2';
const passage = (n: number, fields: Partial<EvidencePassage> = {}): EvidencePassage => ({
  evidenceId: `E${n}`,
  source: { kind: 'context', title: 'Context' },
  text: `Passage ${n} of the context.`,
  start: (n - 1) * 100,
  end: n * 100,
  citations: [],
  supports: [],
  undercuts: [],
  ...fields,
});
const evidence = (passages: EvidencePassage[]): DebateEvidence => ({
  debateId: DEBATE,
  status: 'completed',
  attempt: 1,
  evidence: 'on',
  passages,
});

const cited = passage(2, {
  source: { kind: 'page', url: 'https://example.com/q3', title: 'Q3 report' },
  citations: [
    { claimId: 'a1-r1-analyst', agent: 'analyst', round: 1, quote: 'churn doubled', verified: true },
    { claimId: 'a1-r2-skeptic', agent: 'skeptic', round: 2, quote: 'churn tripled', verified: false },
    { claimId: 'a1-r2-optimist', agent: 'optimist', round: 2, quote: null, verified: true },
  ],
  supports: ['a1-r1-analyst', 'a1-r2-optimist'],
  undercuts: ['a1-r1-skeptic'],
});

describe('verdict evidence', () => {
  it('lists each passage with its source, span, text, every citation as checked, and what it bears on', () => {
    expect(evidenceLines(evidence([passage(1), cited]))).toEqual([
      'evidence on: 2 passages from 2 sources, 1 cited',
      '',
      '[E1] Context, characters 0–100',
      '  "Passage 1 of the context."',
      '',
      '[E2] Q3 report (https://example.com/q3), characters 100–200',
      '  "Passage 2 of the context."',
      '  cited by a1-r1-analyst: "churn doubled" (verified)',
      '  cited by a1-r2-skeptic: "churn tripled" (unverified)',
      '  cited by a1-r2-optimist (verified)',
      '  supports a1-r1-analyst, a1-r2-optimist',
      '  undercuts a1-r1-skeptic',
    ]);
  });

  it('keeps only the cited passages with --cited, the summary still counting the whole corpus', () => {
    const all = evidence([passage(1), cited, passage(3)]);
    const lines = evidenceLines(all, { citedOnly: true });
    expect(lines[0]).toBe('evidence on: 3 passages from 2 sources, 1 cited');
    expect(lines.filter((line) => line.startsWith('['))).toEqual([
      '[E2] Q3 report (https://example.com/q3), characters 100–200',
    ]);
    expect(citedPassages(all).passages.map((p) => p.evidenceId)).toEqual(['E2']);
  });

  it('shows the start of a long passage on one line', () => {
    const long = passage(1, { text: `${'a long line\n'.repeat(40)}` });
    const excerpt = evidenceLines(evidence([long]))[3] ?? '';
    expect(excerpt).toHaveLength(2 + PASSAGE_EXCERPT_WIDTH + 2);
    expect(excerpt).not.toContain('\n');
    expect(excerpt.endsWith('…"')).toBe(true);
  });

  it('says a debate without the evidence engine has no passages, and why', () => {
    expect(evidenceLines({ ...evidence([]), evidence: 'off' })).toEqual([
      'evidence off: the debate ran without the evidence engine (its attachments went to the agents as ' +
        'excerpts), so it has no passages',
    ]);
  });
});
