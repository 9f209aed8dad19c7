import type { ProviderName } from '@verdict/contracts';
import {
  type ModelOverrides,
  PROVIDER_TABLE,
  PROVIDERS,
  type ProviderApi,
  usableProviders,
} from '@verdict/core';
import { anthropicProvider } from './anthropic.ts';
import { googleProvider } from './google.ts';
import { openAiProvider } from './openai.ts';
import { LlmCallError, type LlmProvider } from './port.ts';

export type ProviderKeys = Partial<Record<ProviderName, string>>;

export type ProviderRegistryOptions = {
  /** Per-provider base URL (tests point these at the fake server; Ollama usually needs its own). */
  baseUrls?: Partial<Record<ProviderName, string>>;
  /**
   * The operator's model ids per provider and tier (`<PROVIDER>_MODEL_<TIER>`): routing picks them in place
   * of the provider table's, for the service's keys and for keys a caller brings alike (they reach the same
   * endpoints).
   */
  models?: ModelOverrides;
};

export type ProviderSet = {
  /** One adapter per provider that has a key. */
  providers: Partial<Record<ProviderName, LlmProvider>>;
  /** The providers built, in the canonical order: what routing calls `available`. */
  available: ProviderName[];
};

/** One adapter per wire protocol; a provider's entry in the provider table says which it speaks. */
const ADAPTERS: Record<
  ProviderApi,
  (name: ProviderName, apiKey: string, baseUrl: string | undefined) => LlmProvider
> = {
  anthropic: (_name, apiKey, baseURL) => anthropicProvider({ apiKey, baseURL }),
  google: (_name, apiKey, baseUrl) => googleProvider({ apiKey, baseUrl }),
  openai: (name, apiKey, baseURL) => openAiProvider({ name, apiKey, baseURL }),
};

/**
 * Builds the adapters for the providers the keys and base URLs make usable (routing/providers.ts). Keys stay
 * in memory, inside the SDK clients: they are never logged, never returned, and every adapter scrubs them
 * out of its error messages. A keyless provider (Ollama) gets a placeholder key its server ignores.
 */
export function createProviders(keys: ProviderKeys, options: ProviderRegistryOptions = {}): ProviderSet {
  const providers: Partial<Record<ProviderName, LlmProvider>> = {};
  for (const name of usableProviders(keys, options.baseUrls)) {
    const entry = PROVIDER_TABLE[name];
    const apiKey = keys[name]?.trim() || name;
    const baseUrl =
      options.baseUrls?.[name] ?? ('defaultBaseUrl' in entry ? entry.defaultBaseUrl : undefined);
    providers[name] = ADAPTERS[entry.api](name, apiKey, baseUrl);
  }
  return { providers, available: PROVIDERS.filter((p) => providers[p]) };
}

/** Splits "provider:model" (the ids routing produces). Ollama tags keep their own colon: "ollama:qwen3:8b". */
export function parseModelId(id: string): { provider: ProviderName | undefined; model: string } {
  const colon = id.indexOf(':');
  const prefix = colon > 0 ? id.slice(0, colon) : '';
  if ((PROVIDERS as readonly string[]).includes(prefix)) {
    return { provider: prefix as ProviderName, model: id.slice(colon + 1) };
  }
  return { provider: undefined, model: id };
}

/**
 * One LlmProvider over a ProviderSet, for the engine (which takes a single provider): each request goes
 * to the adapter named by its "provider:model" id. A bare model id is accepted when only one provider
 * is configured. The response's model comes back as "provider:model" too.
 */
export function dispatchingProvider(set: ProviderSet): LlmProvider {
  return {
    name: set.available.length === 1 ? (set.available[0] as string) : 'dispatch',
    complete: async (request) => {
      const parsed = parseModelId(request.model);
      const name = parsed.provider ?? (set.available.length === 1 ? set.available[0] : undefined);
      const adapter = name ? set.providers[name] : undefined;
      if (!name || !adapter) {
        throw new LlmCallError(
          'client',
          `no configured provider for model ${request.model} (configured: ${set.available.join(', ') || 'none'})`,
        );
      }
      const response = await adapter.complete({ ...request, model: parsed.model });
      return { ...response, model: `${name}:${response.model}` };
    },
  };
}
