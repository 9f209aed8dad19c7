import { type Embedder, type EmbeddingsSetting, embeddingModelFor, PROVIDER_TABLE } from '@verdict/core';
import { toLlmCallError } from './errors.ts';
import type { ProviderKeys, ProviderRegistryOptions } from './registry.ts';

/** What picks the embedder: the EMBEDDINGS setting, the service's keys and its endpoints (config.providers). */
export type EmbedderSettings = {
  embeddings: EmbeddingsSetting;
  keys: ProviderKeys;
  baseUrls?: ProviderRegistryOptions['baseUrls'];
};

/** One embedding call's limit: embeddings are short requests; a stuck one must not hold the worker. */
const EMBED_TIMEOUT_MS = 15_000;

/**
 * The deployment's embedder (routing's embeddingModelFor, by EMBEDDINGS: OpenAI, Google, or Ollama through
 * its OpenAI compatible API), through the official SDK of its wire protocol, loaded on first use; null when
 * embeddings are off or no configured provider embeds. Errors are the adapters' LlmCallErrors, keys scrubbed.
 */
export function createEmbedder(settings: EmbedderSettings): Embedder | null {
  const { keys, baseUrls } = settings;
  const choice = embeddingModelFor(settings.embeddings, keys, baseUrls);
  if (!choice) return null;
  const entry = PROVIDER_TABLE[choice.provider];
  const apiKey = keys[choice.provider]?.trim() || choice.provider;
  const baseUrl =
    baseUrls?.[choice.provider] ?? ('defaultBaseUrl' in entry ? entry.defaultBaseUrl : undefined);
  const context = (signal: AbortSignal) => ({ provider: choice.provider, signal, secrets: [apiKey] });
  const model = `${choice.provider}:${choice.model}`;
  const { relatedAbove } = choice;

  if (entry.api === 'google') {
    const sdk = import('@google/genai').then(
      ({ GoogleGenAI }) =>
        new GoogleGenAI({
          apiKey,
          vertexai: false,
          httpOptions: { ...(baseUrl ? { baseUrl } : {}), retryOptions: { attempts: 1 } },
        }),
    );
    return {
      model,
      relatedAbove,
      embed: async (text, signal = AbortSignal.timeout(EMBED_TIMEOUT_MS)) => {
        try {
          const response = await (await sdk).models.embedContent({
            model: choice.model,
            contents: text,
            config: { abortSignal: signal },
          });
          return vectorOf(response.embeddings?.[0]?.values);
        } catch (error) {
          throw toLlmCallError(error, context(signal));
        }
      },
    };
  }
  const sdk = import('openai').then(
    ({ default: OpenAI }) =>
      new OpenAI({
        apiKey,
        baseURL: baseUrl ?? null,
        maxRetries: 0,
        logLevel: 'off',
        organization: null,
        project: null,
      }),
  );
  return {
    model,
    relatedAbove,
    embed: async (text, signal = AbortSignal.timeout(EMBED_TIMEOUT_MS)) => {
      try {
        const response = await (await sdk).embeddings.create(
          { model: choice.model, input: text },
          { signal },
        );
        return vectorOf(response.data[0]?.embedding);
      } catch (error) {
        throw toLlmCallError(error, context(signal));
      }
    },
  };
}

function vectorOf(values: number[] | undefined): number[] {
  if (!values || values.length === 0 || !values.every(Number.isFinite)) {
    throw new Error('the embedding answer holds no vector');
  }
  return values;
}
