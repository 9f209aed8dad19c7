import { describe, expect, it } from 'vitest';
import { storableInstant } from './storable-instant.ts';

describe('storableInstant', () => {
  it('keeps an ordinary instant as ISO text', () => {
    expect(storableInstant('2026-11-26T10:00:00+01:00')).toBe('2026-11-26T09:00:00.000Z');
  });

  it('brings year 0000 and instants past year 9999 to the edges PostgreSQL takes', () => {
    expect(storableInstant('0000-02-29')).toBe('0001-01-01T00:00:00.000Z');
    expect(storableInstant(new Date('9999-12-31T23:00:00-05:00'))).toBe('9999-12-31T23:59:59.999Z');
  });
});
