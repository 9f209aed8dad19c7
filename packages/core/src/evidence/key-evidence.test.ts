import type { EvidenceSource } from '@verdict/contracts';
import { describe, expect, it } from 'vitest';
import { keyEvidenceFrom, openingOf, type PassageText } from './key-evidence.ts';
import { passageBearings } from './passage-bearings.ts';

const source: EvidenceSource = {
  kind: 'attachment',
  attachmentId: '1a1f5a8e-5a0c-4a55-9d1a-2a8f9d6d0c11',
  title: 'q3.pdf',
};
const passages = new Map<string, PassageText>([
  ['E1', { evidenceId: 'E1', source, text: 'Revenue grew 12% in Q3. Costs were flat.', start: 0 }],
  [
    'E2',
    {
      evidenceId: 'E2',
      source,
      text: 'Churn doubled after the price rise. It has not recovered.',
      start: 1_150,
    },
  ],
]);

describe('key evidence', () => {
  it('is built from verified citations only, with the claims that cited each quote', () => {
    const evidence = keyEvidenceFrom(
      [
        {
          claimId: 'a1-r1-cfo',
          citations: [
            { evidenceId: 'E2', quote: 'churn doubled', verified: true },
            { evidenceId: 'E1', quote: 'revenue fell', verified: false },
          ],
        },
        {
          claimId: 'a1-r2-skeptic',
          citations: [{ evidenceId: 'E2', quote: 'Churn doubled', verified: true }],
        },
        { claimId: 'a1-r2-cfo', citations: [{ evidenceId: 'E1', quote: null, verified: true }] },
        { claimId: 'a1-r2-pm', citations: [{ evidenceId: 'E7', quote: null, verified: true }] },
      ],
      passages,
    );
    expect(evidence).toEqual([
      {
        evidenceId: 'E2',
        source,
        quote: 'churn doubled',
        offset: 1_150,
        supports: ['a1-r1-cfo', 'a1-r2-skeptic'],
        verified: true,
      },
      {
        evidenceId: 'E1',
        source,
        quote: 'Revenue grew 12% in Q3.',
        offset: 0,
        supports: ['a1-r2-cfo'],
        verified: true,
      },
    ]);
  });

  it("quotes a passage's first sentence, or its opening cut at a word", () => {
    expect(openingOf('One. Two.')).toBe('One.');
    const long = 'word '.repeat(100);
    expect(openingOf(long).length).toBeLessThanOrEqual(200);
    expect(openingOf(long).endsWith('word')).toBe(true);
  });
});

describe('what a passage bears on', () => {
  it('supports the claims that verifiably cited it and undercuts the claims they rebut', () => {
    const [first, second] = passageBearings(
      [...passages.values()].map((p) => ({ ...p, end: p.start + p.text.length })),
      [
        {
          claimId: 'a1-r2-skeptic',
          agent: 'Skeptic',
          round: 2,
          citations: [{ evidenceId: 'E2', quote: null, verified: true }],
        },
        {
          claimId: 'a1-r2-cfo',
          agent: 'CFO',
          round: 2,
          citations: [{ evidenceId: 'E2', quote: 'x', verified: false }],
        },
      ],
      [
        { from: 'a1-r2-skeptic', to: 'a1-r1-cfo', kind: 'rebuts' },
        { from: 'a1-r2-skeptic', to: 'a1-r1-pm', kind: 'supports' },
        { from: 'a1-r2-cfo', to: 'a1-r1-skeptic', kind: 'rebuts' },
      ],
    );
    expect(first?.citations).toEqual([]);
    expect(second?.citations.map((c) => [c.claimId, c.verified])).toEqual([
      ['a1-r2-skeptic', true],
      ['a1-r2-cfo', false],
    ]);
    expect(second?.supports).toEqual(['a1-r2-skeptic']);
    expect(second?.undercuts).toEqual(['a1-r1-cfo']);
  });
});
