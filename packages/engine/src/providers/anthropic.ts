import type Anthropic from '@anthropic-ai/sdk';
import { toLlmCallError } from './errors.ts';
import { LlmCallError, type LlmProvider, type LlmResponse } from './port.ts';

export type AnthropicAdapterOptions = {
  apiKey: string;
  /** Defaults to the SDK's own (https://api.anthropic.com); tests point it at the fake server. */
  baseURL?: string | undefined;
};

/**
 * Anthropic Messages API, streamed. The SDK's retries are off (Effect owns retries and timeouts) and the
 * caller's signal goes to the SDK, so an abort cancels the HTTP request. JSON requests need nothing extra:
 * the judge's system prompt already asks for a single JSON object.
 */
export function anthropicProvider(options: AnthropicAdapterOptions): LlmProvider {
  // The SDK loads on the first call: a process with no Anthropic key never pays for it.
  let client: Promise<Anthropic> | undefined;
  const sdk = () =>
    (client ??= import('@anthropic-ai/sdk').then(
      ({ default: Sdk }) =>
        new Sdk({ apiKey: options.apiKey, baseURL: options.baseURL ?? null, maxRetries: 0, logLevel: 'off' }),
    ));
  const secrets = [options.apiKey];
  return {
    name: 'anthropic',
    complete: async (request) => {
      const { signal } = request;
      const context = { provider: 'anthropic', signal, secrets };
      try {
        const stream = await (await sdk()).messages.create(
          {
            model: request.model,
            max_tokens: request.maxTokens,
            system: request.system,
            messages: [{ role: 'user', content: request.prompt }],
            stream: true,
          },
          { signal },
        );
        const response: LlmResponse = { text: '', model: request.model, inputTokens: 0, outputTokens: 0 };
        for await (const event of stream) {
          switch (event.type) {
            case 'message_start':
              response.model = event.message.model || request.model;
              response.inputTokens = event.message.usage.input_tokens;
              response.outputTokens = event.message.usage.output_tokens;
              break;
            case 'content_block_delta':
              if (event.delta.type === 'text_delta' && event.delta.text) {
                response.text += event.delta.text;
              }
              break;
            case 'message_delta':
              // Cumulative counts: the last message_delta has the totals.
              response.outputTokens = event.usage.output_tokens;
              if (event.usage.input_tokens != null) response.inputTokens = event.usage.input_tokens;
              break;
          }
        }
        // An aborted stream can end the loop quietly; a cut-short answer must not pass as complete.
        if (signal.aborted) throw new LlmCallError('aborted', 'anthropic: call aborted');
        return response;
      } catch (error) {
        throw toLlmCallError(error, context);
      }
    },
  };
}
