import { describe, expect, it } from 'vitest';
import { citedEvidenceOf, isCitedEvidence } from './key-evidence.ts';
import type { KeyEvidence } from './rest-types.ts';

const cited: KeyEvidence = {
  evidenceId: 'E3',
  source: {
    kind: 'page',
    attachmentId: '5f0c3a9e-4a57-4c38-9f53-64e3f3c0b0a1',
    url: 'https://x.test/a',
    title: 'A',
  },
  quote: 'churn doubled',
  offset: 120,
  supports: ['a1-r1-analyst'],
  verified: true,
};
const judged: KeyEvidence = {
  claim: 'Churn doubled after the last price rise',
  source: 'risk-analyst, round 1',
  supports: 'against',
  weight: 'high',
};

describe('key evidence of either shape', () => {
  it('tells a cited entry from one the judge wrote, whose supports is a stance rather than claim ids', () => {
    expect(isCitedEvidence(cited)).toBe(true);
    expect(isCitedEvidence(judged)).toBe(false);
  });

  it('picks the cited entries of a verdict in order, and none of a verdict without them or no verdict', () => {
    const second = { ...cited, evidenceId: 'E7', quote: 'costs fell' };
    expect(citedEvidenceOf({ keyEvidence: [cited, judged, second] }).map((e) => e.evidenceId)).toEqual([
      'E3',
      'E7',
    ]);
    expect(citedEvidenceOf({ keyEvidence: [judged] })).toEqual([]);
    expect(citedEvidenceOf(null)).toEqual([]);
  });
});
