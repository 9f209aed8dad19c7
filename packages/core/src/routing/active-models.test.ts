import { describe, expect, it } from 'vitest';
import { describeEmbeddings, describeModels } from './active-models.ts';
import { MODEL_TABLE } from './models.ts';

describe('the start-up lines about models', () => {
  it("name each usable provider's model per tier, marking the operator's, and never a key", () => {
    const line = describeModels({
      keys: { openai: 'sk-secret-1' },
      baseUrls: { ollama: 'http://127.0.0.1:11434/v1' },
      models: { openai: { sonnet: 'gpt-4.1' } },
    });
    expect(line).toBe(
      `models: openai opus=${MODEL_TABLE.opus.openai}, sonnet=gpt-4.1 (OPENAI_MODEL_SONNET), ` +
        `haiku=${MODEL_TABLE.haiku.openai}; ollama opus=${MODEL_TABLE.opus.ollama}, ` +
        `sonnet=${MODEL_TABLE.sonnet.ollama}, haiku=${MODEL_TABLE.haiku.ollama}, local=${MODEL_TABLE.local.ollama}`,
    );
    expect(line).not.toContain('sk-secret-1');
    expect(describeModels({ keys: {}, baseUrls: {} })).toMatch(/no provider is configured; .*simulated/);
  });

  it('say whether embeddings are on, with which model, and why not', () => {
    const keys = { openai: 'sk-x' };
    expect(describeEmbeddings({ keys, baseUrls: {}, embeddings: 'auto' })).toBe(
      'embeddings: openai:text-embedding-3-small (EMBEDDINGS=auto)',
    );
    expect(describeEmbeddings({ keys, baseUrls: {}, embeddings: 'off' })).toMatch(
      /^embeddings: off \(EMBEDDINGS=off\); similar debates find nothing/,
    );
    expect(describeEmbeddings({ keys: { anthropic: 'a' }, baseUrls: {}, embeddings: 'auto' })).toMatch(
      /^embeddings: off \(EMBEDDINGS=auto and none of openai, google, ollama is configured\)/,
    );
  });
});
