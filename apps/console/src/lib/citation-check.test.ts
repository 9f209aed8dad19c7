import { describe, expect, it } from 'vitest';
import { citationCheckOf } from './citation-check.ts';

const citations = [
  { evidenceId: 'E1', quote: 'twelve people', verified: true },
  { evidenceId: 'E1', quote: 'twelve nobody', verified: false },
  { evidenceId: 'E2', quote: 'from the provider', verified: true },
];

describe("a tag's check among its turn's citations", () => {
  it('tells the right and the wrong quote of the same passage apart', () => {
    expect(citationCheckOf(citations, 'E1', 'twelve people')).toEqual({
      status: 'verified',
      quote: 'twelve people',
    });
    expect(citationCheckOf(citations, 'E1', 'twelve nobody')).toEqual({
      status: 'unverified',
      quote: 'twelve nobody',
    });
  });

  it("gives a bare tag the passage's check when the provider grounded it with a quote", () => {
    expect(citationCheckOf(citations, 'E2', null)).toEqual({
      status: 'verified',
      quote: 'from the provider',
    });
  });

  it('says unchecked where the turn carries no check for the tag, keeping the quote as written', () => {
    expect(citationCheckOf(undefined, 'E1', 'anything')).toEqual({ status: 'unchecked', quote: 'anything' });
    expect(citationCheckOf(citations, 'E9', null)).toEqual({ status: 'unchecked', quote: null });
    expect(citationCheckOf(citations, 'E2', 'other words')).toEqual({
      status: 'unchecked',
      quote: 'other words',
    });
  });
});
