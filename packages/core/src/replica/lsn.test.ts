import { describe, expect, it } from 'vitest';
import { parseLsn } from './lsn.ts';

describe('parseLsn', () => {
  it('reads the high and low halves so that positions compare as the server orders them', () => {
    expect(parseLsn('0/16B3748')).toBe(0x16b3748n);
    expect(parseLsn('1/0')).toBe(1n << 32n);
    expect((parseLsn('1/0') ?? 0n) > (parseLsn('0/FFFFFFFF') ?? 0n)).toBe(true);
  });

  it('keeps no position as null and refuses text that is not one', () => {
    expect(parseLsn(null)).toBeNull();
    expect(() => parseLsn('16B3748')).toThrow(/not a WAL position/);
  });
});
