/** The LLM layer's public surface beyond the port and the simulated provider: adapters, routing, registry. */
export { type AnthropicAdapterOptions, anthropicProvider } from './anthropic.ts';
export { scrub as scrubSecrets, toLlmCallError } from './errors.ts';
export { type GoogleAdapterOptions, googleProvider } from './google.ts';
export { type OpenAiAdapterOptions, openAiProvider } from './openai.ts';
export type { LlmFailureKind } from './port.ts';
export {
  createProviders,
  dispatchingProvider,
  type ProviderKeys,
  type ProviderRegistryOptions,
  type ProviderSet,
  parseModelId,
} from './registry.ts';
