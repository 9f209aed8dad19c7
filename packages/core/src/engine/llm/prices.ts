/**
 * List prices in US dollars per million tokens (input, output), by "provider:model" id as routing and the
 * dispatching provider name models. CONFIGURATION, NOT TRUTH, like the model table in models.ts: plausible
 * list prices when written; providers change them. Self-hosted Ollama models cost nothing per token here
 * (the hardware is the owner's), and so does the simulated model. A model not listed counts 0, and the
 * cost says so in `estimatedUsd` being a lower bound.
 */
export const PRICES_PER_MILLION_TOKENS: Readonly<Record<string, { input: number; output: number }>> = {
  'anthropic:claude-opus-5-5': { input: 15, output: 75 },
  'anthropic:claude-sonnet-5-5': { input: 3, output: 15 },
  'anthropic:claude-haiku-5-5': { input: 1, output: 5 },
  'openai:gpt-6.1-sol': { input: 5, output: 40 },
  'openai:gpt-6.1-terra': { input: 1.25, output: 10 },
  'openai:gpt-6-luna': { input: 0.25, output: 2 },
  'google:gemini-pro-latest': { input: 1.25, output: 10 },
  'google:gemini-flash-latest': { input: 0.3, output: 2.5 },
  'google:gemini-flash-lite-latest': { input: 0.1, output: 0.4 },
  'openrouter:anthropic/claude-opus-5.5': { input: 15, output: 75 },
  'openrouter:anthropic/claude-sonnet-5.5': { input: 3, output: 15 },
  'openrouter:anthropic/claude-haiku-5.5': { input: 1, output: 5 },
  'openrouter:deepseek/deepseek-r2': { input: 0.55, output: 2.19 },
  'openrouter:deepseek/deepseek-v4': { input: 0.27, output: 1.1 },
  'openrouter:deepseek/deepseek-v4-flash': { input: 0.07, output: 0.28 },
  'openrouter:openai/gpt-oss-120b:nitro': { input: 0.15, output: 0.6 },
  'openrouter:moonshotai/kimi-k2:nitro': { input: 1, output: 3 },
  'openrouter:meta-llama/llama-4-maverick:nitro': { input: 0.2, output: 0.6 },
};

/**
 * What one call cost at list price. Providers answer with the dated version of the model asked for
 * ("claude-sonnet-5-5-20261001"), so the longest listed id the answer starts with prices it.
 */
export function estimateUsd(model: string, inputTokens: number, outputTokens: number): number {
  let price = PRICES_PER_MILLION_TOKENS[model];
  if (!price) {
    const listed = Object.keys(PRICES_PER_MILLION_TOKENS)
      .filter((id) => model.startsWith(id))
      .sort((a, b) => b.length - a.length)[0];
    price = listed ? PRICES_PER_MILLION_TOKENS[listed] : undefined;
  }
  if (!price) return 0;
  return (inputTokens * price.input + outputTokens * price.output) / 1_000_000;
}
