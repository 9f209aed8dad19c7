import { ErrorEnvelope } from '@verdict/contracts';
import { describe, expect, it } from 'vitest';
import { MAX_VALIDATION_DETAILS, zodIssuesToDetails } from './app-errors.ts';

describe('zodIssuesToDetails', () => {
  it('lists at most as many issues as the envelope allows, the first ones, with dotted paths', () => {
    const issues = Array.from({ length: 250 }, (_, i) => ({
      path: ['ids', i],
      message: 'Invalid UUID',
      code: 'invalid_format',
    }));
    const details = zodIssuesToDetails(issues);
    expect(details).toHaveLength(MAX_VALIDATION_DETAILS);
    expect(details[0]).toEqual({ path: 'ids.0', message: 'Invalid UUID', code: 'invalid_format' });
    expect(details.at(-1)?.path).toBe(`ids.${MAX_VALIDATION_DETAILS - 1}`);
    const envelope = { error: { code: 'VALIDATION_ERROR', message: 'Request validation failed', details } };
    expect(ErrorEnvelope.safeParse(envelope).success).toBe(true);
  });
});
