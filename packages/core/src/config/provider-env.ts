import { type ProviderName, Tier } from '@verdict/contracts';
import { z } from 'zod';
import {
  EMBEDDING_PROVIDERS,
  type EmbeddingsSetting,
  type ModelOverrides,
  PROVIDER_TABLE,
  PROVIDERS,
  type ProviderEntry,
  usableProviders,
} from '../routing/providers.ts';

/** The service's providers as configured: keys (never logged), endpoints, model ids and embeddings. */
export type ProviderConfig = {
  keys: Partial<Record<ProviderName, string>>;
  baseUrls: Partial<Record<ProviderName, string>>;
  /** `<PROVIDER>_MODEL_<TIER>`: the operator's model ids, replacing the provider table's. */
  models: ModelOverrides;
  /** EMBEDDINGS: which provider embeds debates for similar and semantic search, if any. */
  embeddings: EmbeddingsSetting;
};

const Url = z.url({ protocol: /^https?$/ });

/**
 * `<NAME>_API_KEY` and `<NAME>_BASE_URL` of every provider in the provider table (ANTHROPIC_API_KEY,
 * OLLAMA_BASE_URL …). A keyless provider (Ollama) is enabled by its base URL alone.
 */
const providerVariable = (name: ProviderName, what: 'API_KEY' | 'BASE_URL') =>
  `${name.toUpperCase()}_${what}`;
const ProviderEnv = z.object(
  Object.fromEntries(
    PROVIDERS.flatMap((name) => [
      [providerVariable(name, 'API_KEY'), z.string().min(1).optional()],
      [providerVariable(name, 'BASE_URL'), Url.optional()],
    ]),
  ),
);

const EMBEDDINGS_VALUES: readonly string[] = ['off', 'auto', ...EMBEDDING_PROVIDERS];

/** Any variable that looks like a model override, so a misspelt tier is refused rather than ignored. */
const MODEL_VARIABLE = new RegExp(`^(${PROVIDERS.map((p) => p.toUpperCase()).join('|')})_MODEL(?:_(.*))?$`);

/** A model id as providers and gateways spell them (`gpt-4.1`, `qwen3:8b`, `anthropic/claude-…`). */
const MODEL_ID = /^[^\s,]{1,200}$/;

/**
 * Reads the providers' variables from `env` (loadConfig's, the only reader of process.env). Returns the
 * configuration, or one line per problem (`  NAME: what is wrong`).
 */
export function providerConfig(env: Record<string, string | undefined>): {
  config: ProviderConfig;
  problems: string[];
} {
  const parsed = ProviderEnv.safeParse(env);
  const problems = (parsed.error?.issues ?? []).map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
  const fromEnv = (what: 'API_KEY' | 'BASE_URL') =>
    Object.fromEntries(
      PROVIDERS.flatMap((name) => {
        const value = parsed.data?.[providerVariable(name, what)];
        return typeof value === 'string' ? [[name, value]] : [];
      }),
    ) as Partial<Record<ProviderName, string>>;
  const keys = fromEnv('API_KEY');
  const baseUrls = fromEnv('BASE_URL');
  const models = modelOverrides(env, problems);
  const embeddings = embeddingsSetting(env.EMBEDDINGS, keys, baseUrls, problems);
  return { config: { keys, baseUrls, models, embeddings }, problems };
}

function modelOverrides(env: Record<string, string | undefined>, problems: string[]): ModelOverrides {
  const models: ModelOverrides = {};
  for (const [variable, value] of Object.entries(env).sort(([a], [b]) => a.localeCompare(b))) {
    const match = MODEL_VARIABLE.exec(variable);
    if (!match || value === undefined) continue;
    const provider = (match[1] ?? '').toLowerCase() as ProviderName;
    const tier = Tier.safeParse(match[2]?.toLowerCase());
    const served: ProviderEntry['tiers'] = PROVIDER_TABLE[provider].tiers;
    const problem = !tier.success
      ? match[2] === undefined
        ? `name the tier: ${variable}_<TIER> (tiers: ${Tier.options.join(', ')})`
        : `no tier "${match[2].toLowerCase()}" (tiers: ${Tier.options.join(', ')})`
      : !(tier.data in served)
        ? tier.data === 'local'
          ? `only ${PROVIDERS.filter((p) => 'local' in PROVIDER_TABLE[p].tiers).join(', ')} serves the local tier (a cloud API is never local)`
          : `${provider} serves no ${tier.data} tier`
        : !MODEL_ID.test(value)
          ? 'a model id without spaces or commas'
          : null;
    if (problem) {
      problems.push(`  ${variable}: ${problem}`);
    } else if (tier.success) {
      models[provider] = { ...models[provider], [tier.data]: value };
    }
  }
  return models;
}

function embeddingsSetting(
  value: string | undefined,
  keys: Partial<Record<ProviderName, string>>,
  baseUrls: Partial<Record<ProviderName, string>>,
  problems: string[],
): EmbeddingsSetting {
  const setting = value ?? 'off';
  if (!EMBEDDINGS_VALUES.includes(setting)) {
    problems.push(`  EMBEDDINGS: one of ${EMBEDDINGS_VALUES.join(', ')}`);
    return 'off';
  }
  const provider = setting as EmbeddingsSetting;
  if (provider !== 'off' && provider !== 'auto' && !usableProviders(keys, baseUrls).includes(provider)) {
    const entry: ProviderEntry = PROVIDER_TABLE[provider];
    const needs = providerVariable(provider, entry.keyless ? 'BASE_URL' : 'API_KEY');
    problems.push(`  EMBEDDINGS: ${provider} embeds only with ${needs} set`);
  }
  return provider;
}
