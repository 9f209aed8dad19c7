import { VerdictError } from '@verdict/sdk';
import { describe, expect, it } from 'vitest';
import { CreateDebateInput, RegisterInput } from './contracts.ts';
import { checked, fieldOf, issuesOf } from './form-issues.ts';

describe('form issues', () => {
  it('passes a body the contract accepts through unchanged', () => {
    const body = { question: 'Should we adopt a four-day week?', mode: 'fast' as const };
    expect(checked(CreateDebateInput, body)).toBe(body);
  });

  it('refuses a body as the server would: VALIDATION_ERROR with dotted paths and the contract’s messages', () => {
    let refused: unknown;
    try {
      checked(RegisterInput, { email: 'not an email', password: 'short', name: 'Ada' });
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(VerdictError);
    expect(refused).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    const issues = issuesOf(refused);
    expect(issues.map(fieldOf).sort()).toEqual(['email', 'password']);
    expect(issues.find((issue) => issue.path === 'password')?.message).toMatch(/>=10 characters/);
  });

  it('reads the envelope’s details, keeping only well-formed ones, and the field of a nested path', () => {
    const error = new VerdictError({
      status: 400,
      code: 'VALIDATION_ERROR',
      message: 'Request validation failed',
      details: [
        { path: 'payload.content', message: 'Too small', code: 'too_small' },
        'garbage',
        { path: 'x' },
      ],
    });
    expect(issuesOf(error)).toEqual([{ path: 'payload.content', message: 'Too small', code: 'too_small' }]);
    expect(fieldOf({ path: 'payload.content', message: '', code: '' })).toBe('payload');
    expect(issuesOf(new Error('not from the API'))).toEqual([]);
  });
});
