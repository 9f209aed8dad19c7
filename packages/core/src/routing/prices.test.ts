import { describe, expect, it } from 'vitest';
import { DEBATE_PRESET_ROUTING, MODEL_TABLE } from './models.ts';
import { callCostNanoUsd, decimalUsd, estimateUsd, PRICES_PER_MILLION_TOKENS, usdOfNano } from './prices.ts';

describe('call cost at list price', () => {
  it('prices input and output tokens per million', () => {
    expect(estimateUsd('anthropic:claude-sonnet-5-5', 1_000_000, 0)).toBe(3);
    expect(estimateUsd('anthropic:claude-sonnet-5-5', 2000, 500)).toBeCloseTo(0.0135, 10);
  });

  it("prices a provider's dated answer by the model it was asked for", () => {
    expect(estimateUsd('anthropic:claude-haiku-5-5-20261001', 1_000_000, 1_000_000)).toBe(6);
  });

  it('counts the simulated model, self-hosted Ollama models and unknown models as free', () => {
    expect(estimateUsd('simulated/opus', 10_000, 10_000)).toBe(0);
    expect(estimateUsd('ollama:qwen3:32b', 10_000, 10_000)).toBe(0);
    expect(estimateUsd('openai:some-future-model', 10_000, 10_000)).toBe(0);
  });

  it("has a price for every cloud model routing can pick, the debate presets' included", () => {
    const cloud = [
      ...Object.values(MODEL_TABLE).flatMap((byProvider) => Object.entries(byProvider)),
      ...Object.values(DEBATE_PRESET_ROUTING).flatMap((preset) =>
        Object.values(preset.models ?? {}).flatMap((byProvider) => Object.entries(byProvider)),
      ),
    ]
      .filter(([provider]) => provider !== 'ollama')
      .map(([provider, model]) => `${provider}:${model}`);
    expect(cloud.length).toBeGreaterThan(15);
    expect(cloud.filter((id) => !PRICES_PER_MILLION_TOKENS[id])).toEqual([]);
  });
});

describe('call cost in whole nanodollars', () => {
  it('is exact, and sums exactly where dollars in floating point do not', () => {
    expect(callCostNanoUsd('openrouter:deepseek/deepseek-r2', 1, 1)).toBe(550 + 2190);
    const calls = Array.from({ length: 10 }, () => callCostNanoUsd('google:gemini-flash-lite-latest', 1, 0));
    expect(calls.reduce((a, b) => a + b, 0)).toBe(1000);
    expect(decimalUsd(1000)).toBe('0.000001000');
    expect(decimalUsd(12_345_678_901)).toBe('12.345678901');
    expect(usdOfNano(1_500_000_000)).toBe(1.5);
  });
});
