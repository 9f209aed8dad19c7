import { describe, expect, it } from 'vitest';
import { hasEvidenceTag, plainTurnText, turnSegments } from './turn-text.ts';

describe("a turn's text cut into segments", () => {
  it('makes a quoted citation a tag segment after the quote, which stays text', () => {
    expect(turnSegments('The record says "churn doubled last year" [E3].')).toEqual([
      { kind: 'text', text: 'The record says "churn doubled last year" ' },
      { kind: 'evidence', evidenceId: 'E3', quote: 'churn doubled last year' },
      { kind: 'text', text: '.' },
    ]);
  });

  it('reads curly quotes and bare tags, and a bare tag quotes nothing', () => {
    expect(turnSegments('\u201cTwelve people\u201d [E12] and more [E4]')).toEqual([
      { kind: 'text', text: '\u201cTwelve people\u201d ' },
      { kind: 'evidence', evidenceId: 'E12', quote: 'Twelve people' },
      { kind: 'text', text: ' and more ' },
      { kind: 'evidence', evidenceId: 'E4', quote: null },
    ]);
  });

  it('makes claim tags written loosely into the contract form, between evidence tags in order', () => {
    expect(turnSegments('[E1] first [Supports: a1-r1-CFO], then [ rebut a2-r3-risk-analyst ] [E2]')).toEqual([
      { kind: 'evidence', evidenceId: 'E1', quote: null },
      { kind: 'text', text: ' first ' },
      { kind: 'claim', relation: 'supports', claimId: 'a1-r1-cfo' },
      { kind: 'text', text: ', then ' },
      { kind: 'claim', relation: 'rebuts', claimId: 'a2-r3-risk-analyst' },
      { kind: 'text', text: ' ' },
      { kind: 'evidence', evidenceId: 'E2', quote: null },
    ]);
  });

  it('leaves text without tags whole, and brackets that are no tag as text', () => {
    expect(turnSegments('Plain words [E0] [note] [rebuts cfo]')).toEqual([
      { kind: 'text', text: 'Plain words [E0] [note] [rebuts cfo]' },
    ]);
    expect(turnSegments('')).toEqual([]);
  });

  it('reads the same text the same way twice (the global patterns keep no state between calls)', () => {
    const text = 'x [E1] y [rebuts a1-r1-cfo]';
    expect(turnSegments(text)).toEqual(turnSegments(text));
    expect(turnSegments(text)).toHaveLength(4);
  });

  it('says whether a text cites a passage', () => {
    expect(hasEvidenceTag('as "shown" [E7]')).toBe(true);
    expect(hasEvidenceTag('only [supports a1-r1-cfo]')).toBe(false);
  });
});

describe('a text as plain words', () => {
  it('writes every tag out and keeps the rest as it was', () => {
    expect(plainTurnText('Costs rise [Rebuts: a1-r1-cfo] "as planned" [E1].')).toBe(
      'Costs rise (rebuts cfo, round 1) "as planned" (E1).',
    );
    expect(plainTurnText('No tags [here].')).toBe('No tags [here].');
  });
});
