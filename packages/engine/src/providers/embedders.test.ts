import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FAKE_EMBEDDING_DIMENSIONS,
  type FakeLlmServer,
  fakeEmbedding,
  startFakeLlmServer,
} from '../testing/index.ts';
import { createEmbedder } from './embedders.ts';
import { LlmCallError } from './port.ts';

describe('createEmbedder', () => {
  let fake: FakeLlmServer;
  beforeAll(async () => {
    fake = await startFakeLlmServer();
  });
  afterAll(async () => fake.close());

  it('is null when embeddings are off, whatever the keys, or no provider embeds (Anthropic, OpenRouter)', () => {
    expect(createEmbedder({ embeddings: 'off', keys: { openai: 'sk-x', google: 'g-x' } })).toBeNull();
    expect(createEmbedder({ embeddings: 'auto', keys: {} })).toBeNull();
    expect(
      createEmbedder({ embeddings: 'auto', keys: { anthropic: 'sk-ant-x', openrouter: 'sk-or-x' } }),
    ).toBeNull();
  });

  it('on auto prefers OpenAI, then Google, then a configured Ollama; a named provider is that one', () => {
    const auto = (keys: Record<string, string>, baseUrls = {}) =>
      createEmbedder({ embeddings: 'auto', keys, baseUrls })?.model;
    expect(auto({ openai: 'sk-x', google: 'g-x' })).toBe('openai:text-embedding-3-small');
    expect(auto({ google: 'g-x' })).toBe('google:text-embedding-004');
    expect(auto({}, { ollama: 'http://127.0.0.1:11434/v1' })).toBe('ollama:nomic-embed-text');
    expect(createEmbedder({ embeddings: 'google', keys: { openai: 'sk-x', google: 'g-x' } })?.model).toBe(
      'google:text-embedding-004',
    );
  });

  it.each([
    ['openai', { openai: 'sk-test-embed' }],
    ['google', { google: 'g-test-embed' }],
  ] as const)('embeds through the %s SDK', async (provider, keys) => {
    fake.setScript([{ text: 'unused' }]);
    const embedder = createEmbedder({
      embeddings: provider,
      keys,
      baseUrls: { [provider]: fake.baseUrls[provider] },
    });
    const vector = await embedder?.embed('Should we move the office to Lisbon');
    expect(vector).toHaveLength(FAKE_EMBEDDING_DIMENSIONS);
    expect(vector).toEqual(fakeEmbedding('Should we move the office to Lisbon'));
    const request = fake.requests.at(-1);
    expect(request?.path).toMatch(
      provider === 'openai' ? /\/v1\/embeddings$/ : /text-embedding-004:(batch)?[eE]mbed/,
    );
  });

  it('fails as an LlmCallError that never carries the key', async () => {
    fake.setScript([{ status: 401, message: 'bad key sk-test-secret-key' }]);
    const embedder = createEmbedder({
      embeddings: 'openai',
      keys: { openai: 'sk-test-secret-key' },
      baseUrls: { openai: fake.baseUrls.openai },
    });
    const error = await embedder?.embed('anything').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmCallError);
    expect((error as LlmCallError).kind).toBe('client');
    expect((error as Error).message).not.toContain('sk-test-secret-key');
  });
});
