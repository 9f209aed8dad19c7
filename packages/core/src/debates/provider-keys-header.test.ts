import { describe, expect, it } from 'vitest';
import { parseProviderKeysHeader } from './provider-keys-header.ts';

describe('X-Provider-Keys', () => {
  it('accepts both documented formats', () => {
    expect(parseProviderKeysHeader('openai:sk-aaaaaaaa, anthropic:sk-ant-bbbbbbbb')).toEqual({
      openai: 'sk-aaaaaaaa',
      anthropic: 'sk-ant-bbbbbbbb',
    });
    expect(parseProviderKeysHeader('{"google":"AIzaSyCCCCCCCC"}')).toEqual({ google: 'AIzaSyCCCCCCCC' });
    expect(parseProviderKeysHeader(undefined)).toBeNull();
  });

  it.each([
    ['', 'empty'],
    ['openai=sk-aaaaaaaa', 'pairs'],
    ['{"openai": 42}', 'malformed'],
    ['{not json', 'JSON'],
    ['mistral:sk-aaaaaaaa', 'unknown provider'],
    ['openai:short', 'malformed'],
    ['["openai"]', 'object'],
  ])('rejects %j with 400 VALIDATION_ERROR that does not echo the value', (header, why) => {
    let error: { code?: string; message?: string } = {};
    try {
      parseProviderKeysHeader(header);
    } catch (err) {
      error = err as typeof error;
    }
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.message).toContain(why);
    if (header.length > 8) expect(error.message).not.toContain('sk-aaaaaaaa');
  });
});

describe('X-Provider-Keys errors', () => {
  it('never echo a key pasted where the provider name belongs', () => {
    const header = 'sk-proj-SECRETSECRETSECRET:sk-ant-bbbbbbbb';
    let message = '';
    try {
      parseProviderKeysHeader(header);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toContain('unknown provider');
    expect(message).not.toContain('SECRET');
    expect(message).not.toContain('sk-proj');
  });
});
