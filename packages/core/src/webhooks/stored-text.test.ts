import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { storedText } from './stored-text.ts';

const utf8Bytes = (text: string) => Buffer.byteLength(text, 'utf8');

describe('storedText', () => {
  it('removes NUL bytes, which PostgreSQL refuses in text', () => {
    expect(storedText(Buffer.from('ok\0 done\0'), 1024)).toBe('ok done');
    expect(storedText('refused\0: reset', 500)).toBe('refused: reset');
  });

  it('turns invalid UTF-8 into U+FFFD and still keeps within the byte limit', () => {
    // Each 0xff is one byte of input but three bytes once decoded to U+FFFD.
    expect(storedText(Buffer.from([0x61, 0xff, 0x62]), 1024)).toBe('a\ufffdb');
    const invalid = storedText(Buffer.alloc(1024, 0xff), 1024);
    expect(utf8Bytes(invalid)).toBeLessThanOrEqual(1024);
    expect(invalid).toBe('\ufffd'.repeat(341));
  });

  it('drops a character cut in two by the limit instead of keeping half of it', () => {
    // 'é' is two bytes: 1,025 bytes of answer hold 512 of them and half of the 513th.
    const answer = Buffer.concat([Buffer.from('é'.repeat(512)), Buffer.from([0xc3])]);
    expect(storedText(answer, 1024)).toBe('é'.repeat(512));
    expect(storedText(Buffer.from('a'.concat('😀'.repeat(300))), 1024)).toBe(`a${'😀'.repeat(255)}`);
  });

  it('never cuts a surrogate pair of a message', () => {
    expect(storedText('😀'.repeat(200), 10)).toBe('😀😀');
    expect(storedText('x\ud83d', 10)).toBe('x\ufffd');
  });

  it('always gives well-formed text without NUL within the limit, whatever the bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3000 }), fc.integer({ min: 1, max: 1100 }), (bytes, max) => {
        const text = storedText(bytes, max);
        expect(text.isWellFormed()).toBe(true);
        expect(text).not.toContain('\u0000');
        expect(utf8Bytes(text)).toBeLessThanOrEqual(max);
      }),
    );
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 800 }),
        fc.integer({ min: 1, max: 600 }),
        (s, max) => {
          const text = storedText(s, max);
          expect(text.isWellFormed()).toBe(true);
          expect(text).not.toContain('\u0000');
          expect(utf8Bytes(text)).toBeLessThanOrEqual(max);
        },
      ),
    );
  });

  it('keeps a plain answer as it came', () => {
    expect(storedText(Buffer.from('accepted'), 1024)).toBe('accepted');
    expect(storedText(Buffer.from('x'.repeat(5000)), 1024)).toBe('x'.repeat(1024));
  });
});
