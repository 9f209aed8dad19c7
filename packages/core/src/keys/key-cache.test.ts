import { describe, expect, it } from 'vitest';
import { createKeyCache } from './key-cache.ts';

function cacheAt(start = 0, maxEntries = 100) {
  const clock = { at: start };
  const cache = createKeyCache<string>({ now: () => clock.at, ttlMs: 1000, maxEntries });
  return { clock, cache };
}

describe('the key cache', () => {
  it('keeps nothing until it is listening, and serves what it kept once it is', () => {
    const { cache } = cacheAt();
    cache.remember('h1', 'u1', 'alice', cache.mark());
    expect(cache.get('h1')).toBeUndefined();
    cache.trust();
    cache.remember('h1', 'u1', 'alice', cache.mark());
    expect(cache.get('h1')).toBe('alice');
  });

  it("forgets every key of a user whose principal changed, and nobody else's", () => {
    const { cache } = cacheAt();
    cache.trust();
    cache.remember('h1', 'u1', 'a', cache.mark());
    cache.remember('h2', 'u1', 'b', cache.mark());
    cache.remember('h3', 'u2', 'c', cache.mark());
    cache.forgetUser('u1');
    expect([cache.get('h1'), cache.get('h2'), cache.get('h3')]).toEqual([undefined, undefined, 'c']);
  });

  it('does not keep a lookup that overlapped a change: it may have read the row before the change', () => {
    const { cache } = cacheAt();
    cache.trust();
    const mark = cache.mark();
    cache.forgetUser('u9'); // any change heard while the lookup was out
    cache.remember('h1', 'u1', 'stale?', mark);
    expect(cache.get('h1')).toBeUndefined();
  });

  it('forgets everything and serves nothing while changes may go unheard', () => {
    const { cache } = cacheAt();
    cache.trust();
    const mark = cache.mark();
    cache.remember('h1', 'u1', 'a', mark);
    cache.distrust();
    expect(cache.get('h1')).toBeUndefined();
    cache.remember('h1', 'u1', 'a', cache.mark());
    cache.trust();
    expect(cache.get('h1')).toBeUndefined();
    expect(cache.size()).toBe(0);
  });

  it('looks a key up again once its entry is older than the bound', () => {
    const { clock, cache } = cacheAt();
    cache.trust();
    cache.remember('h1', 'u1', 'a', cache.mark());
    clock.at = 999;
    expect(cache.get('h1')).toBe('a');
    clock.at = 1000;
    expect(cache.get('h1')).toBeUndefined();
    expect(cache.size()).toBe(0);
  });

  it('makes room by dropping the oldest entry, and its user index with it', () => {
    const { cache } = cacheAt(0, 2);
    cache.trust();
    cache.remember('h1', 'u1', 'a', cache.mark());
    cache.remember('h2', 'u2', 'b', cache.mark());
    cache.remember('h3', 'u3', 'c', cache.mark());
    expect([cache.get('h1'), cache.get('h2'), cache.get('h3')]).toEqual([undefined, 'b', 'c']);
    cache.remember('h1', 'u1', 'a2', cache.mark()); // h2 is the oldest now
    expect([cache.get('h1'), cache.get('h2'), cache.get('h3')]).toEqual(['a2', undefined, 'c']);
    cache.forgetUser('u3');
    expect(cache.size()).toBe(1);
    expect(cache.get('h1')).toBe('a2');
  });
});
