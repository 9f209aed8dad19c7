import { z } from 'zod';
import { UuidInput } from './ids.ts';
import { visibleText } from './text.ts';

export const KeyPreset = z.enum(['balanced', 'economy', 'hackathon', 'local', 'custom']);
export type KeyPreset = z.infer<typeof KeyPreset>;

/** Task names a key may route to a tier. */
export const TaskName = z.enum([
  'orchestrator',
  'synthesizer',
  'debater',
  'classifier',
  'search_planner',
  'mid_debate_analyst',
  'fact_checker',
  'controversy_scorer',
]);
export type TaskName = z.infer<typeof TaskName>;

/** Model tiers: opus largest, sonnet balanced, haiku fast, local self-hosted through ollama. */
export const Tier = z.enum(['opus', 'sonnet', 'haiku', 'local']);
export type Tier = z.infer<typeof Tier>;

export const ProviderName = z.enum(['anthropic', 'openai', 'google', 'ollama', 'openrouter']);
export type ProviderName = z.infer<typeof ProviderName>;

/**
 * Key-level configuration applied to debates run with that key. Every field may be null; PATCH replaces
 * the whole object.
 *
 * @example
 * { preset: 'economy', routingOverrides: { debater: 'haiku', fact_checker: null },
 *   allowedProviders: ['anthropic'], rateLimit: 30, description: 'CI key' }
 */
export const ApiKeyConfig = z
  .strictObject({
    preset: KeyPreset.nullable().optional(),
    routingOverrides: z
      .partialRecord(TaskName, Tier.nullable())
      .nullable()
      .optional()
      .meta({ description: 'Task name to tier; null disables that task override' }),
    allowedProviders: z
      .array(ProviderName)
      .min(1, 'allowedProviders needs at least one provider when given')
      .max(ProviderName.options.length)
      .nullable()
      .optional(),
    rateLimit: z
      .number()
      .int()
      .min(1)
      .max(100_000)
      .nullable()
      .optional()
      .meta({ description: 'Per-minute request cap for this key; null = plan default' }),
    description: visibleText(1, 500).nullable().optional(),
  })
  .meta({ id: 'ApiKeyConfig' });
export type ApiKeyConfig = z.infer<typeof ApiKeyConfig>;

/** The stored, normalised form: every field present, absent ones null. */
export const StoredApiKeyConfig = z.object({
  preset: KeyPreset.nullable(),
  routingOverrides: z.partialRecord(TaskName, Tier.nullable()).nullable(),
  allowedProviders: z.array(ProviderName).nullable(),
  rateLimit: z.number().int().nullable(),
  description: z.string().nullable(),
});
export type StoredApiKeyConfig = z.infer<typeof StoredApiKeyConfig>;

const KeyName = visibleText(1, 100);

export const ApiKey = z
  .object({
    id: z.uuid(),
    name: z.string(),
    keyPrefix: z.string().meta({ description: 'First 16 characters of the key; safe to log' }),
    config: StoredApiKeyConfig.nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'ApiKey' });
export type ApiKey = z.infer<typeof ApiKey>;

export const CreateApiKeyInput = z.strictObject({
  name: KeyName,
  config: ApiKeyConfig.nullable().optional(),
});
export type CreateApiKeyInput = z.infer<typeof CreateApiKeyInput>;

export const CreatedApiKey = ApiKey.extend({
  key: z.string().meta({ description: 'The full key, starting with vrd_. Shown only in this response.' }),
}).meta({ id: 'CreatedApiKey' });
export type CreatedApiKey = z.infer<typeof CreatedApiKey>;

export const UpdateApiKeyInput = z.strictObject({
  id: UuidInput,
  name: KeyName.optional(),
  config: ApiKeyConfig.nullable().optional().meta({ description: 'Replaces the whole config; no merge' }),
});
export type UpdateApiKeyInput = z.infer<typeof UpdateApiKeyInput>;

export const KeyIdInput = z.object({ id: UuidInput });
export const ApiKeyList = z.object({ keys: z.array(ApiKey) });
export type ApiKeyList = z.infer<typeof ApiKeyList>;
