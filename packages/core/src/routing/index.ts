/** Model routing, pure: which provider and model serve each task, and what they cost at list price. */
export { describeEmbeddings, describeModels } from './active-models.ts';
export { DEBATE_CALL_LIMITS } from './call-limits.ts';
export {
  type CostEstimate,
  type EstimateInput,
  estimateDebateCost,
  type LengthBasis,
} from './cost-estimate.ts';
export {
  type DebateModels,
  type DebateRoutingFacts,
  debateModelsFor,
  seatModel,
  storedPreset,
} from './debate-models.ts';
export { judgeModelFor } from './judge-model.ts';
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
  CALL_TASKS,
  type CallTask,
  DEFAULT_LENGTHS,
  INTERVAL_PERCENTILES,
  LEARNT_AT_LEAST,
  LEARNT_FROM_LAST,
  type LearntLengths,
  type LengthTable,
  learnLengths,
  lengthsKey,
  type OutputSample,
} from './output-lengths.ts';
export {
  callCostNanoUsd,
  decimalUsd,
  estimateUsd,
  PRICES_PER_MILLION_TOKENS,
  priceOf,
  usdOfNano,
} from './prices.ts';
export {
  type BriefSize,
  CHARS_PER_TOKEN,
  classifierCallChars,
  type DocumentSize,
  debaterCallChars,
  documentChars,
  judgeCallChars,
  PROMPT_CHARS,
  passageChars,
  tokensOfChars,
} from './prompt-sizes.ts';
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
  type ProviderSettings,
  providerEntry,
  usableProviders,
} from './providers.ts';
export { SIMULATED_FREE_JUDGE, SIMULATED_MODELS } from './simulated-models.ts';
