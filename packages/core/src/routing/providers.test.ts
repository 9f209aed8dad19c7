import { ProviderName } from '@verdict/contracts';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.ts';
import { BYOK_PROVIDERS, PROVIDER_TABLE, PROVIDERS, usableProviders } from './providers.ts';

describe('the provider table', () => {
  it('has one entry per provider name of the contracts, in routing preference order', () => {
    expect([...PROVIDERS].sort()).toEqual([...ProviderName.options].sort());
    expect(PROVIDERS).toEqual(['anthropic', 'openai', 'google', 'openrouter', 'ollama']);
  });

  it('lets BYOK callers bring keys for the direct APIs only', () => {
    expect(BYOK_PROVIDERS).toEqual(['anthropic', 'openai', 'google']);
  });

  it('makes a provider usable by its key, and a keyless one by its base URL alone', () => {
    expect(usableProviders({ google: 'AIza-key', anthropic: '  ' })).toEqual(['google']);
    expect(usableProviders({}, { ollama: 'http://127.0.0.1:11434/v1' })).toEqual(['ollama']);
    expect(usableProviders({}, { openrouter: 'https://openrouter.ai/api/v1' })).toEqual([]);
  });

  it("is what configuration reads: each provider's <NAME>_API_KEY and <NAME>_BASE_URL", () => {
    const config = loadConfig({
      OPENROUTER_API_KEY: 'sk-or-1',
      OLLAMA_BASE_URL: 'http://127.0.0.1:11434/v1',
    });
    expect(config.providers).toEqual({
      keys: { openrouter: 'sk-or-1' },
      baseUrls: { ollama: 'http://127.0.0.1:11434/v1' },
      models: {},
      embeddings: 'off',
    });
    expect(() => loadConfig({ GOOGLE_BASE_URL: 'not a url' })).toThrow(/GOOGLE_BASE_URL/);
    expect(Object.keys(PROVIDER_TABLE)).toHaveLength(PROVIDERS.length);
  });
});
