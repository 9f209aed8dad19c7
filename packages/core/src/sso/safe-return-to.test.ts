import { describe, expect, it } from 'vitest';
import { safeReturnTo } from './start-sign-in.ts';

describe('where a signed-in browser is sent back to', () => {
  it.each(['/debates', '/debates/6f1c1b0e?tab=chart', '/workspaces#sso'])(
    'keeps a path of this site: %s',
    (path) => {
      expect(safeReturnTo(path)).toBe(path);
    },
  );

  it.each([
    ['another site', 'https://evil.example/'],
    ['a scheme-relative URL', '//evil.example/'],
    ['a backslash browsers read as a slash', '/\\evil.example'],
    ['a relative path', 'debates'],
    ['whitespace that hides a host', '/ /evil.example'],
    ['nothing', undefined],
    ['something too long', `/${'a'.repeat(2001)}`],
  ])('goes to the console start instead of %s', (_label, value) => {
    expect(safeReturnTo(value)).toBe('/');
  });
});
