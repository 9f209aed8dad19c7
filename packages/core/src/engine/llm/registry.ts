import type { ProviderName } from '@verdict/contracts';
import { anthropicProvider } from './anthropic.ts';
import { googleProvider } from './google.ts';
import { PROVIDERS } from './models.ts';
import { openAiProvider } from './openai.ts';
import { LlmCallError, type LlmProvider } from './port.ts';
import { type SimulatedOptions, simulatedProvider } from './simulated.ts';

export type ProviderKeys = Partial<Record<ProviderName, string>>;

export type ProviderRegistryOptions = {
  /** Per-provider base URL (tests point these at the fake server; Ollama usually needs its own). */
  baseUrls?: Partial<Record<ProviderName, string>>;
};

/** Base URLs of the OpenAI-compatible providers; the others use their SDK's default. */
export const DEFAULT_BASE_URLS: Readonly<Partial<Record<ProviderName, string>>> = {
  openrouter: 'https://openrouter.ai/api/v1',
  ollama: 'http://127.0.0.1:11434/v1',
};

export type ProviderSet = {
  /** One adapter per provider that has a key. */
  providers: Partial<Record<ProviderName, LlmProvider>>;
  /** The providers built, in the canonical order: what routing calls `available`. */
  available: ProviderName[];
};

/**
 * Builds the adapters for the providers that have a key. Keys stay in memory, inside the SDK clients:
 * they are never logged, never returned, and every adapter scrubs them out of its error messages.
 * Ollama needs no key: it is built when it has a key (any placeholder) or an explicit base URL.
 */
export function createProviders(keys: ProviderKeys, options: ProviderRegistryOptions = {}): ProviderSet {
  const providers: Partial<Record<ProviderName, LlmProvider>> = {};
  const baseUrl = (p: ProviderName) => options.baseUrls?.[p] ?? DEFAULT_BASE_URLS[p];
  for (const name of PROVIDERS) {
    const key = keys[name]?.trim();
    if (name === 'ollama') {
      if (key || options.baseUrls?.ollama) {
        providers.ollama = openAiProvider({ name, apiKey: key || 'ollama', baseURL: baseUrl(name) });
      }
      continue;
    }
    if (!key) continue;
    if (name === 'anthropic')
      providers.anthropic = anthropicProvider({ apiKey: key, baseURL: baseUrl(name) });
    else if (name === 'google') providers.google = googleProvider({ apiKey: key, baseUrl: baseUrl(name) });
    else providers[name] = openAiProvider({ name, apiKey: key, baseURL: baseUrl(name) });
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

export type ResolvedProvider =
  | { simulated: false; provider: LlmProvider; available: ProviderName[] }
  | { simulated: true; provider: LlmProvider; available: [] };

/**
 * The provider a debate should run on: the real adapters when any key is configured, otherwise the
 * SIMULATED provider (no network; every text it writes is labelled simulated). `simulated: true` tells
 * the caller it must say so to the user and need not route models (any model name works).
 */
export function providerOrSimulated(set: ProviderSet, simulated: SimulatedOptions = {}): ResolvedProvider {
  if (set.available.length === 0)
    return { simulated: true, provider: simulatedProvider(simulated), available: [] };
  return { simulated: false, provider: dispatchingProvider(set), available: set.available };
}

/** True when no provider key is configured and debates must run on the simulated provider. */
export const needsSimulatedProvider = (set: ProviderSet) => set.available.length === 0;
