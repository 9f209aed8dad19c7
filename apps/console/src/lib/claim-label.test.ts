import { describe, expect, it } from 'vitest';
import { claimLabel } from './claim-label.ts';

const claims = [
  { claimId: 'a1-r1-cfo', agent: 'CFO', round: 1 },
  { claimId: 'a1-r2-risk-analyst', agent: 'Risk Analyst', round: 2 },
];

describe('the name of a claim a tag points at', () => {
  it("is its turn's agent and round", () => {
    expect(claimLabel('a1-r2-risk-analyst', claims)).toEqual({ text: 'Risk Analyst, round 2', known: true });
  });

  it('is what the id spells when no turn made it', () => {
    expect(claimLabel('a1-r4-skeptic', claims)).toEqual({ text: 'skeptic, round 4', known: false });
  });
});
