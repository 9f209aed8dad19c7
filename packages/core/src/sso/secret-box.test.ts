import { describe, expect, it } from 'vitest';
import { createSecretBox } from './secret-box.ts';

const KEY = 'k'.repeat(32);

describe('the secret box', () => {
  const box = createSecretBox(KEY);

  it('opens what it sealed for the same workspace, and seals the same secret differently each time', () => {
    const a = box.seal('client-secret', 'ws-1');
    const b = box.seal('client-secret', 'ws-1');
    expect(a).not.toBe(b);
    expect(a).not.toContain('client-secret');
    expect(a.startsWith('v1.')).toBe(true);
    expect(box.open(a, 'ws-1')).toBe('client-secret');
    expect(box.open(b, 'ws-1')).toBe('client-secret');
  });

  it('refuses a sealed secret moved to another workspace, under another key, or changed', () => {
    const sealed = box.seal('client-secret', 'ws-1');
    expect(() => box.open(sealed, 'ws-2')).toThrow(/authenticate/);
    expect(() => createSecretBox('x'.repeat(32)).open(sealed, 'ws-1')).toThrow(/authenticate/);
    const [v, iv, tag, body] = sealed.split('.');
    const flipped = `${body?.[0] === 'A' ? 'B' : 'A'}${body?.slice(1)}`;
    expect(() => box.open([v, iv, tag, flipped].join('.'), 'ws-1')).toThrow(/authenticate/);
    expect(() => box.open('plain text', 'ws-1')).toThrow(/Not a sealed secret/);
  });
});
