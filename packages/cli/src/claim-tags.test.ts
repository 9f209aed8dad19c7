import { describe, expect, it } from 'vitest';
import { readableClaimTags } from './claim-tags.ts';

describe('claim tags in a terminal', () => {
  it('are written out with the agent named as the panel names it', () => {
    const text =
      'Yet [rebuts a1-r1-cfo] ignores churn; as [Supports: a2-r2-risk-analyst] shows, "churn doubled" [E3].';
    expect(readableClaimTags(text, ['CFO', 'Risk Analyst'])).toBe(
      'Yet (rebuts CFO, round 1) ignores churn; as (supports Risk Analyst, round 2) shows, "churn doubled" [E3].',
    );
  });

  it('fall back to the slug for an agent the panel does not know, and leave other brackets alone', () => {
    expect(readableClaimTags('[rebut a1-r3-nobody] [note] [E1]', [])).toBe(
      '(rebuts nobody, round 3) [note] [E1]',
    );
  });
});
