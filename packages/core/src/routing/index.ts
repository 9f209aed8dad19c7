/** Model routing, pure: which provider and model serve each task, and what they cost at list price. */
export { describeEmbeddings, describeModels } from './active-models.ts';
export { DEBATE_CALL_LIMITS } from './call-limits.ts';
export {
  CHARS_PER_TOKEN,
  type CostEstimate,
  type EstimateInput,
  estimateDebateCost,
  PROMPT_OVERHEAD_TOKENS,
  textTokens,
} from './cost-estimate.ts';
export {
  type DebateModels,
  type DebateRoutingFacts,
  debateModelsFor,
  seatModel,
  storedPreset,
} from './debate-models.ts';
export { judgeModelFor, type ProviderSettings } from './judge-model.ts';
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
  planDebate,
  presetTier,
  type Route,
  RoutingError,
  type RoutingOptions,
  routeTask,
  TASK_DEFAULT_TIER,
  tierFor,
} from './models.ts';
export {
  callCostNanoUsd,
  decimalUsd,
  estimateUsd,
  PRICES_PER_MILLION_TOKENS,
  priceOf,
  usdOfNano,
} from './prices.ts';
export {
  BYOK_PROVIDERS,
  EMBEDDING_PROVIDERS,
  type EmbeddingsSetting,
  embeddingModelFor,
  type ModelOverrides,
  type ModelPrice,
  PROVIDER_TABLE,
  PROVIDERS,
  type ProviderApi,
  type ProviderEntry,
  providerEntry,
  usableProviders,
} from './providers.ts';
export { SIMULATED_FREE_JUDGE, SIMULATED_MODELS } from './simulated-models.ts';
