import { describe, expect, it } from 'vitest';
import { parseVerdict } from './verdict-parser.ts';

const answer = {
  recommendation: 'proceed',
  oneLiner: 'Go ahead.',
  confidence: 90,
  narrative: 'Most of the panel was for it.',
};

describe('parseVerdict', () => {
  it('never takes a calibrated confidence from the judge: only the engine adds one, from the owner’s outcomes', () => {
    const parsed = parseVerdict(
      JSON.stringify({
        ...answer,
        calibratedConfidence: 0.99,
        calibration: { method: 'platt-shrinkage', basedOn: 1000, scope: 'domain' },
      }),
      [],
    );
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.verdict).toMatchObject({ recommendation: 'PROCEED', confidence: 0.9 });
    expect(parsed.verdict).not.toHaveProperty('calibratedConfidence');
    expect(parsed.verdict).not.toHaveProperty('calibration');
  });

  it('takes key evidence from the judge only in the judged shape, and never an evidence mode', () => {
    const cited = {
      evidenceId: 'E3',
      source: { kind: 'context', title: 'Context' },
      quote: 'made up',
      offset: 0,
      supports: [],
      verified: true,
    };
    const parsed = parseVerdict(JSON.stringify({ ...answer, keyEvidence: [cited], evidence: 'on' }), []);
    expect(parsed.ok).toBe(false);
    const judged = { claim: 'Churn doubled', source: 'CFO, round 1', supports: 'against', weight: 'high' };
    const plain = parseVerdict(JSON.stringify({ ...answer, keyEvidence: [judged], evidence: 'on' }), []);
    expect(plain.ok && plain.verdict.keyEvidence).toEqual([judged]);
    expect(plain.ok && plain.verdict).not.toHaveProperty('evidence');
  });

  it('drops whatever the judge wrote as key evidence when the engine builds it, without asking again', () => {
    const parsed = parseVerdict(
      JSON.stringify({ ...answer, keyEvidence: [{ evidenceId: 'E3' }, 'text'] }),
      [],
      false,
    );
    expect(parsed.ok && parsed.verdict.keyEvidence).toEqual([]);
  });
});
