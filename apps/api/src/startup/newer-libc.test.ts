import { describe, expect, it } from 'vitest';
import { archiveOf, isRecentEnough } from './newer-libc.ts';

describe('the newer C library', () => {
  it('is taken from the archive the machine already uses, not its security archive', () => {
    const sources = [
      'Types: deb',
      'URIs: http://security.example.org/debian-security',
      'Suites: bookworm-security',
      'Components: main',
      '',
      'Types: deb',
      'URIs: http://mirror.example.org/debian',
      'Suites: bookworm bookworm-updates',
      'Components: main',
    ].join('\n');
    expect(archiveOf(sources)).toBe('http://mirror.example.org/debian');
    expect(archiveOf('')).toBe('http://deb.debian.org/debian');
  });

  it('must be at least glibc 2.38, the version uWebSockets.js needs', () => {
    expect(isRecentEnough('2.41-12+deb13u5')).toBe(true);
    expect(isRecentEnough('2.38-1')).toBe(true);
    expect(isRecentEnough('3.0-1')).toBe(true);
    expect(isRecentEnough('2.37-15')).toBe(false);
    expect(isRecentEnough('2.36-9+deb12u14')).toBe(false);
    expect(isRecentEnough('garbage')).toBe(false);
  });
});
