import type { ProviderName } from '@verdict/contracts';
import { type ModelPrice, PROVIDER_TABLE, PROVIDERS } from './providers.ts';

/** List prices by "provider:model" id, as routing and the dispatching provider name models. */
export const PRICES_PER_MILLION_TOKENS: Readonly<Record<string, ModelPrice>> = Object.fromEntries(
  PROVIDERS.flatMap((provider: ProviderName) =>
    Object.entries(PROVIDER_TABLE[provider].prices as Record<string, ModelPrice>).map(([model, price]) => [
      `${provider}:${model}`,
      price,
    ]),
  ),
);

/**
 * What one call cost at list price (the provider table's; configuration, not truth). The simulated model,
 * self-hosted Ollama models and models not listed count 0, so an estimate is a lower bound. Providers answer
 * with the dated version of the model asked for ("claude-sonnet-5-5-20261001"), so the longest listed id
 * the answer starts with prices it.
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
