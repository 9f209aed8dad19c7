import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quoteOffsetIn } from './quote-match.ts';

const passage =
  'Churn doubled after the   last price rise.\nSupport tickets — mostly billing — rose by “a third” in Q2.';

describe('a quote found in its passage', () => {
  it('is found where it starts, whatever its case and spacing', () => {
    expect(quoteOffsetIn(passage, 'churn doubled after the last price rise')).toBe(0);
    expect(quoteOffsetIn(passage, 'THE LAST PRICE')).toBe(passage.indexOf('the   last'));
  });

  it('forgives curly quotes, dash variants and punctuation at its ends', () => {
    expect(quoteOffsetIn(passage, 'tickets - mostly billing - rose by "a third"')).toBe(
      passage.indexOf('tickets'),
    );
    expect(quoteOffsetIn(passage, '…rose by “a third” in Q2.')).toBe(passage.indexOf('rose'));
  });

  it('reads an ellipsis as omitted words, the pieces in order', () => {
    expect(quoteOffsetIn(passage, 'Churn doubled ... rose by')).toBe(0);
    expect(quoteOffsetIn(passage, 'Churn doubled… in Q2')).toBe(0);
    expect(quoteOffsetIn(passage, 'rose by ... Churn doubled')).toBeNull();
  });

  it('fails a changed, added or missing word', () => {
    expect(quoteOffsetIn(passage, 'churn tripled after the last price rise')).toBeNull();
    expect(quoteOffsetIn(passage, 'churn doubled right after the last price rise')).toBeNull();
    expect(quoteOffsetIn(passage, 'churn after the last price rise')).toBeNull();
  });

  it('never matches a quote with no words', () => {
    expect(quoteOffsetIn(passage, '...')).toBeNull();
    expect(quoteOffsetIn(passage, ' "." ')).toBeNull();
  });

  it('finds a later occurrence when only it is followed by the rest', () => {
    const text = 'the cost rose. Later the cost fell sharply.';
    expect(quoteOffsetIn(text, 'the cost ... sharply')).toBe(0);
    expect(quoteOffsetIn(text, 'the cost fell')).toBe(text.indexOf('the cost fell'));
  });

  it('finds every exact substring of a text, no later than where it was taken', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 200 }), fc.nat(), fc.nat(), (text, a, b) => {
        const from = a % text.length;
        const to = from + 1 + (b % (text.length - from));
        const quote = text.slice(from, to);
        const at = quoteOffsetIn(text, quote);
        if (!/[\p{L}\p{N}]/u.test(quote)) return; // nothing but punctuation: never a quote
        // Punctuation and spaces the quote starts with are not compared, so its words may start later.
        const lead =
          quote.length -
          quote.replace(/^[\s.,;:!?'"()[\]\-\u2010-\u2015\u2212\u2018-\u201d\u2026]+/, '').length;
        expect(at).not.toBeNull();
        expect(at).toBeLessThanOrEqual(from + lead);
      }),
      { numRuns: 300 },
    );
  });
});
