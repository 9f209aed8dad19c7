import { Tier } from '@verdict/contracts';
import { MODEL_TABLE } from './models.ts';
import type { ProviderSettings } from './providers.ts';
import {
  EMBEDDING_PROVIDERS,
  type EmbeddingsSetting,
  embeddingModelFor,
  usableProviders,
} from './providers.ts';

/**
 * The start-up line naming the models this deployment routes to: per usable provider, each tier's model,
 * the operator's own (`<PROVIDER>_MODEL_<TIER>`) marked as such. Keys are never part of it.
 */
export function describeModels(providers: ProviderSettings): string {
  const usable = usableProviders(providers.keys, providers.baseUrls);
  if (usable.length === 0) return 'models: no provider is configured; debates run on the simulated model';
  const perProvider = usable.map((provider) => {
    const tiers = Tier.options.flatMap((tier) => {
      const configured = providers.models?.[provider]?.[tier];
      const model = configured ?? MODEL_TABLE[tier][provider];
      if (!model) return [];
      const marker = configured ? ` (${provider.toUpperCase()}_MODEL_${tier.toUpperCase()})` : '';
      return [`${tier}=${model}${marker}`];
    });
    return `${provider} ${tiers.join(', ')}`;
  });
  return `models: ${perProvider.join('; ')}`;
}

/** The start-up line saying whether, and with which model, completed debates and questions are embedded. */
export function describeEmbeddings(providers: ProviderSettings & { embeddings: EmbeddingsSetting }): string {
  const choice = embeddingModelFor(providers.embeddings, providers.keys, providers.baseUrls);
  if (choice) return `embeddings: ${choice.provider}:${choice.model} (EMBEDDINGS=${providers.embeddings})`;
  const why =
    providers.embeddings === 'off'
      ? 'EMBEDDINGS=off'
      : `EMBEDDINGS=${providers.embeddings} and none of ${EMBEDDING_PROVIDERS.join(', ')} is configured`;
  return `embeddings: off (${why}); similar debates find nothing and search has no semantic hits`;
}
