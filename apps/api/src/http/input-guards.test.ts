import { describe, expect, it } from 'vitest';
import { findNulPath } from '../trpc/nul-characters.ts';
import { jsonDepthExceeds, MAX_JSON_DEPTH } from './input-guards.ts';

describe('JSON depth check', () => {
  const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

  it(`accepts ${MAX_JSON_DEPTH} levels and refuses one more, objects and arrays alike`, () => {
    expect(jsonDepthExceeds(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonDepthExceeds(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(jsonDepthExceeds(`${'{"a":'.repeat(MAX_JSON_DEPTH + 1)}1${'}'.repeat(MAX_JSON_DEPTH + 1)}`)).toBe(
      true,
    );
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    const inString = JSON.stringify({ text: `"${'['.repeat(100)}\\"${'{'.repeat(100)}` });
    expect(jsonDepthExceeds(inString)).toBe(false);
  });

  it('measures depth, not the number of brackets: many shallow siblings pass', () => {
    expect(jsonDepthExceeds(JSON.stringify(Array.from({ length: 5000 }, () => [[1]])))).toBe(false);
  });
});

describe('NUL scan', () => {
  it('finds a NUL in a nested value or key and names where', () => {
    expect(findNulPath({ a: { b: ['ok', 'x\u0000y'] } })).toBe('a.b.1');
    expect(findNulPath({ config: { 'bad\u0000key': 1 } })).toBe('config.bad\u0000key');
    expect(findNulPath('\u0000')).toBe('');
  });

  it('passes input without NUL, including other control characters and non-strings', () => {
    expect(findNulPath({ a: 'tab\there', n: 1, b: true, z: null, list: [{ u: '\u200b' }] })).toBeNull();
    expect(findNulPath(undefined)).toBeNull();
  });

  it('walks very deep input without recursion', () => {
    let deep: unknown = 'leaf\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findNulPath(deep)).toMatch(/^0(\.0)*$/);
  });
});
