import type { CitedEvidence, KeyEvidence } from '@verdict/sdk';
import { describe, expect, it } from 'vitest';
import { QUOTE_WIDTH, sourceLabel, sourcesLines } from './sources.ts';

const page: CitedEvidence = {
  evidenceId: 'E3',
  source: {
    kind: 'page',
    attachmentId: '5f0c3a9e-4a57-4c38-9f53-64e3f3c0b0a1',
    url: 'https://example.com/q3',
    title: 'Q3 churn report',
  },
  quote: 'churn doubled after the\n  price rise',
  offset: 412,
  supports: ['a1-r1-risk-analyst', 'a1-r2-skeptic'],
  verified: true,
};
const context: CitedEvidence = {
  evidenceId: 'E12',
  source: { kind: 'context', title: 'Context' },
  quote: 'We have 40 engineers',
  offset: 0,
  supports: ['a1-r1-optimist'],
  verified: true,
};
const judged: KeyEvidence = {
  claim: 'Churn doubled after the last price rise',
  source: 'risk-analyst, round 1',
  supports: 'against',
  weight: 'high',
};

describe('the Sources under a verdict', () => {
  it('prints each cited passage as [E<n>] "quote" — source, a page with its address, and the claims citing it', () => {
    expect(sourcesLines({ keyEvidence: [page, context], evidence: 'on' })).toEqual([
      'Sources',
      '  [E3] "churn doubled after the price rise" — Q3 churn report (https://example.com/q3)',
      '       cited by a1-r1-risk-analyst, a1-r2-skeptic',
      '  [E12] "We have 40 engineers" — Context',
      '        cited by a1-r1-optimist',
    ]);
  });

  it('prints nothing for key evidence the judge wrote, as before the evidence engine', () => {
    expect(sourcesLines({ keyEvidence: [judged], evidence: 'off' })).toEqual([]);
    expect(sourcesLines({ keyEvidence: [judged] })).toEqual([]);
  });

  it('says so when the evidence engine was on but no citation was verified', () => {
    expect(sourcesLines({ keyEvidence: [], evidence: 'on' })).toEqual([
      'Sources',
      '  none: no citation in the debate was verified',
    ]);
  });

  it('cuts a long quote with an ellipsis on screen', () => {
    const long = { ...context, quote: 'word '.repeat(100) };
    const line = sourcesLines({ keyEvidence: [long] })[1] ?? '';
    const quoted = /"(.*)"/.exec(line)?.[1] ?? '';
    expect(quoted).toHaveLength(QUOTE_WIDTH);
    expect(quoted.endsWith('…')).toBe(true);
  });

  it('names an uploaded file by its title alone, and a page titled by its address once', () => {
    expect(sourceLabel({ kind: 'attachment', title: 'pricing.pdf' })).toBe('pricing.pdf');
    expect(sourceLabel({ kind: 'page', url: 'https://x.test/a', title: 'https://x.test/a' })).toBe(
      'https://x.test/a',
    );
  });
});
