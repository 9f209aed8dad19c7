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
 * The list price a model is charged at, or null when it is free here: the simulated model, self-hosted
 * Ollama models and models not listed. Providers answer with the dated version of the model asked for
 * ("claude-sonnet-5-5-20261001"), so the longest listed id the answer starts with prices it.
 */
export function priceOf(model: string): ModelPrice | null {
  const exact = PRICES_PER_MILLION_TOKENS[model];
  if (exact) return exact;
  const listed = Object.keys(PRICES_PER_MILLION_TOKENS)
    .filter((id) => model.startsWith(id))
    .sort((a, b) => b.length - a.length)[0];
  return (listed && PRICES_PER_MILLION_TOKENS[listed]) || null;
}

/**
 * Nanodollars (10⁻⁹ USD) per token of a price in dollars per million tokens: a whole number for any price
 * with at most three decimals (the table's have two), so costs are counted in whole nanodollars and every
 * sum of them is exact, where sums of fractional dollars in floating point are not.
 */
const nanoPerToken = (usdPerMillion: number) => Math.round(usdPerMillion * 1000);

/** What one call cost at list price, in whole nanodollars (exact; 0 for a free model). */
export function callCostNanoUsd(model: string, inputTokens: number, outputTokens: number): number {
  const price = priceOf(model);
  if (!price) return 0;
  return inputTokens * nanoPerToken(price.input) + outputTokens * nanoPerToken(price.output);
}

/** Whole nanodollars as dollars: the nearest double to the exact decimal, which has at most nine decimals. */
export const usdOfNano = (nanoUsd: number): number => Number(decimalUsd(nanoUsd));

/** Whole nanodollars as an exact decimal string of dollars ("0.000012345"). */
export function decimalUsd(nanoUsd: number): string {
  const digits = String(Math.abs(Math.trunc(nanoUsd))).padStart(10, '0');
  const sign = nanoUsd < 0 ? '-' : '';
  return `${sign}${digits.slice(0, -9)}.${digits.slice(-9)}`;
}

/**
 * What one call cost at list price (the provider table's; configuration, not truth), in dollars. The
 * simulated model, self-hosted Ollama models and models not listed count 0, so an estimate is a lower bound.
 */
export function estimateUsd(model: string, inputTokens: number, outputTokens: number): number {
  return usdOfNano(callCostNanoUsd(model, inputTokens, outputTokens));
}
