import { describe, expect, it } from 'vitest';
import { evictBeyond } from './corpus-index.ts';

describe('evictBeyond', () => {
  const cache = () =>
    new Map([
      ['oldest', { bytes: 40 }],
      ['older', { bytes: 30 }],
      ['recent', { bytes: 20 }],
      ['just-used', { bytes: 50 }],
    ]);

  it('forgets the least recently used indexes until the rest fit', () => {
    const indexes = cache();
    evictBeyond(indexes, 100, 'just-used');
    expect([...indexes.keys()]).toEqual(['older', 'recent', 'just-used']);
    evictBeyond(indexes, 90, 'just-used');
    expect([...indexes.keys()]).toEqual(['recent', 'just-used']);
  });

  it('keeps everything that fits, and the one just used even when it alone is too large', () => {
    const fits = cache();
    evictBeyond(fits, 140, 'just-used');
    expect([...fits.keys()]).toEqual(['oldest', 'older', 'recent', 'just-used']);
    const tooLarge = cache();
    evictBeyond(tooLarge, 10, 'just-used');
    expect([...tooLarge.keys()]).toEqual(['just-used']);
  });
});
