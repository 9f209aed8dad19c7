import type { ProviderName, Tier } from '@verdict/contracts';

/** The wire protocol a provider speaks, which picks the engine's adapter (the official SDK of it). */
export type ProviderApi = 'anthropic' | 'openai' | 'google';

/** Price of a model in US dollars per million tokens. */
export type ModelPrice = { input: number; output: number };

export type ProviderEntry = {
  api: ProviderApi;
  /** Its endpoint when the SDK's own default is not it (OpenAI-compatible services). */
  defaultBaseUrl?: string;
  /** Runs without a key of its own (a self-hosted server) once its base URL is configured. */
  keyless?: boolean;
  /** A caller may bring a key for it in X-Provider-Keys (BYOK plans). */
  byok: boolean;
  /** The model it serves at each tier it serves. */
  tiers: Partial<Record<Tier, string>>;
  /** List prices of the models it serves, by model id; a model not listed counts 0 (see prices.ts). */
  prices: Record<string, ModelPrice>;
  /** Its text-embedding model, when it has one (similar debates and semantic search). */
  embedding?: EmbeddingModel;
};

/**
 * A text-embedding model, and the cosine similarity below which its scores mean "unrelated": each model has
 * its own baseline (unrelated English texts score about 0.1 with OpenAI's v3 models, nearer 0.4 with
 * Google's and nomic's), so search's semantic hits are cut per model. /api/similar shows every score and
 * cuts nothing.
 */
export type EmbeddingModel = { model: string; relatedAbove: number };

/**
 * THE provider table: everything the service knows about each LLM provider. Configuration reads it for the
 * environment variables (`<NAME>_API_KEY`, `<NAME>_BASE_URL`), X-Provider-Keys for who may be brought,
 * routing for which model serves which tier, the judge choice and cost estimates through routing, and the
 * engine for which SDK adapter to build. Adding a provider on a known API is one entry here (and its name in
 * contracts' ProviderName); a new API is one adapter file in the engine as well. The order is the routing
 * preference: direct APIs first, then the aggregator, then the self-hosted server, so a cloud key, when
 * present, wins on quality and speed.
 *
 * Model ids and prices are CONFIGURATION, NOT TRUTH: plausible when written (from the SDK typings of
 * @anthropic-ai/sdk 1.12, openai 7.57 and @google/genai 3.1, OpenRouter's vendor/model naming and Ollama
 * library tags); providers rename models and change prices, and this is the one place to follow them.
 * Gemini ids are Google's moving aliases (…-latest). Only Ollama serves the local tier: a cloud API is never
 * "local", so a key on the local preset never silently leaves the user's machine; Ollama serves every tier
 * with local models of matching size and costs nothing per token here (the hardware is the owner's).
 */
export const PROVIDER_TABLE = {
  anthropic: {
    api: 'anthropic',
    byok: true,
    tiers: { opus: 'claude-opus-5-5', sonnet: 'claude-sonnet-5-5', haiku: 'claude-haiku-5-5' },
    prices: {
      'claude-opus-5-5': { input: 15, output: 75 },
      'claude-sonnet-5-5': { input: 3, output: 15 },
      'claude-haiku-5-5': { input: 1, output: 5 },
    },
  },
  openai: {
    api: 'openai',
    byok: true,
    tiers: { opus: 'gpt-6.1-sol', sonnet: 'gpt-6.1-terra', haiku: 'gpt-6-luna' },
    prices: {
      'gpt-6.1-sol': { input: 5, output: 40 },
      'gpt-6.1-terra': { input: 1.25, output: 10 },
      'gpt-6-luna': { input: 0.25, output: 2 },
    },
    embedding: { model: 'text-embedding-3-small', relatedAbove: 0.3 },
  },
  google: {
    api: 'google',
    byok: true,
    tiers: { opus: 'gemini-pro-latest', sonnet: 'gemini-flash-latest', haiku: 'gemini-flash-lite-latest' },
    prices: {
      'gemini-pro-latest': { input: 1.25, output: 10 },
      'gemini-flash-latest': { input: 0.3, output: 2.5 },
      'gemini-flash-lite-latest': { input: 0.1, output: 0.4 },
    },
    embedding: { model: 'text-embedding-004', relatedAbove: 0.5 },
  },
  openrouter: {
    api: 'openai',
    defaultBaseUrl: 'https://openrouter.ai/api/v1',
    byok: false,
    tiers: {
      opus: 'anthropic/claude-opus-5.5',
      sonnet: 'anthropic/claude-sonnet-5.5',
      haiku: 'anthropic/claude-haiku-5.5',
    },
    prices: {
      'anthropic/claude-opus-5.5': { input: 15, output: 75 },
      'anthropic/claude-sonnet-5.5': { input: 3, output: 15 },
      'anthropic/claude-haiku-5.5': { input: 1, output: 5 },
      // The debate presets' models (models.ts).
      'deepseek/deepseek-r2': { input: 0.55, output: 2.19 },
      'deepseek/deepseek-v4': { input: 0.27, output: 1.1 },
      'deepseek/deepseek-v4-flash': { input: 0.07, output: 0.28 },
      'openai/gpt-oss-120b:nitro': { input: 0.15, output: 0.6 },
      'moonshotai/kimi-k2:nitro': { input: 1, output: 3 },
      'meta-llama/llama-4-maverick:nitro': { input: 0.2, output: 0.6 },
    },
  },
  ollama: {
    api: 'openai',
    defaultBaseUrl: 'http://127.0.0.1:11434/v1',
    keyless: true,
    byok: false,
    tiers: { opus: 'gpt-oss:120b', sonnet: 'qwen3:32b', haiku: 'qwen3:8b', local: 'gpt-oss:20b' },
    prices: {},
    embedding: { model: 'nomic-embed-text', relatedAbove: 0.5 },
  },
} as const satisfies Record<ProviderName, ProviderEntry>;

/** Every provider, in routing preference order. */
export const PROVIDERS = Object.keys(PROVIDER_TABLE) as ProviderName[];

export const providerEntry = (name: ProviderName): ProviderEntry => PROVIDER_TABLE[name];

/** Providers a caller may bring keys for in X-Provider-Keys. */
export const BYOK_PROVIDERS = PROVIDERS.filter((name) => PROVIDER_TABLE[name].byok);

/**
 * The providers a deployment can use, given its keys and base URLs: those with a key, and a keyless one
 * (Ollama) once its base URL is configured. In the table's order.
 */
export function usableProviders(
  keys: Partial<Record<ProviderName, string>>,
  baseUrls: Partial<Record<ProviderName, string>> = {},
): ProviderName[] {
  return PROVIDERS.filter((name) => {
    const entry: ProviderEntry = PROVIDER_TABLE[name];
    return Boolean(keys[name]?.trim()) || (entry.keyless === true && baseUrls[name] !== undefined);
  });
}

/** The operator's model ids per provider and tier (`<PROVIDER>_MODEL_<TIER>`), replacing the table's. */
export type ModelOverrides = Partial<Record<ProviderName, Partial<Record<Tier, string>>>>;

/** The operator's provider keys, base URLs and models: what picks a debate's models and its judge. */
export type ProviderSettings = {
  keys: Partial<Record<ProviderName, string>>;
  baseUrls: Partial<Record<ProviderName, string>>;
  /** The operator's model ids per provider and tier. */
  models?: ModelOverrides;
};

/** Providers with a text-embedding model, in the table's order. */
export const EMBEDDING_PROVIDERS = PROVIDERS.filter(
  (name) => (PROVIDER_TABLE[name] as ProviderEntry).embedding !== undefined,
);

/**
 * EMBEDDINGS: `off` embeds nothing; `auto` the first usable provider that embeds; a provider's name, that
 * one. Embedding sends every completed debate's text to the provider, so it is never switched on by a key
 * alone.
 */
export type EmbeddingsSetting = 'off' | 'auto' | ProviderName;

/**
 * The embedding model a deployment uses, as "provider:model", by the EMBEDDINGS setting; null when it is
 * off or nothing usable embeds (then nothing is embedded and similar-debate lookups find nothing).
 */
export function embeddingModelFor(
  setting: EmbeddingsSetting,
  keys: Partial<Record<ProviderName, string>>,
  baseUrls: Partial<Record<ProviderName, string>> = {},
): ({ provider: ProviderName } & EmbeddingModel) | null {
  if (setting === 'off') return null;
  for (const name of usableProviders(keys, baseUrls)) {
    if (setting !== 'auto' && name !== setting) continue;
    const embedding = (PROVIDER_TABLE[name] as ProviderEntry).embedding;
    if (embedding) return { provider: name, ...embedding };
  }
  return null;
}
