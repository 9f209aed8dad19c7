/** The LLM layer's public surface beyond the port and the simulated provider: adapters, routing, registry. */
export { type AnthropicAdapterOptions, anthropicProvider } from './anthropic.ts';
export { scrub as scrubSecrets, toLlmCallError } from './errors.ts';
export { type GoogleAdapterOptions, googleProvider } from './google.ts';
export {
  candidateProviders,
  DEBATE_PRESET_ROUTING,
  DEBATE_PRESETS,
  type DebatePlan,
  type DebatePreset,
  type DebatePresetRouting,
  debateRoutingOptions,
  type KeyRouting,
  MODEL_TABLE,
  modelFor,
  modelId,
  modelsForPanel,
  PROVIDER_PREFERENCE,
  PROVIDERS,
  planDebate,
  presetTier,
  type Route,
  RoutingError,
  type RoutingOptions,
  routeTask,
  TASK_DEFAULT_TIER,
  TIERS,
  tierFor,
} from './models.ts';
export { type OpenAiAdapterOptions, openAiProvider } from './openai.ts';
export type { LlmFailureKind } from './port.ts';
export {
  createProviders,
  DEFAULT_BASE_URLS,
  dispatchingProvider,
  needsSimulatedProvider,
  type ProviderKeys,
  type ProviderRegistryOptions,
  type ProviderSet,
  parseModelId,
  providerOrSimulated,
  type ResolvedProvider,
} from './registry.ts';
