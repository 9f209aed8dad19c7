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
});
