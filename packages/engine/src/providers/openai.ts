import type OpenAI from 'openai';
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { promptWithDocuments } from './documents.ts';
import { toLlmCallError } from './errors.ts';
import { LlmCallError, type LlmProvider, type LlmResponse } from './port.ts';

export type OpenAiAdapterOptions = {
  apiKey: string;
  /** Must end in /v1. Defaults to the SDK's own (https://api.openai.com/v1). */
  baseURL?: string | undefined;
  /** The provider name the adapter reports: openai, or an OpenAI-compatible one (openrouter, ollama). */
  name?: string;
  /**
   * OpenAI's own API wants `max_completion_tokens` (its reasoning models reject `max_tokens`); the
   * compatible servers (OpenRouter, Ollama) know `max_tokens` best. Defaults to true for name openai.
   */
  maxCompletionTokens?: boolean;
};

/**
 * OpenAI Chat Completions, streamed, with the usage chunk requested (stream_options.include_usage). The
 * same adapter with another baseURL serves the OpenAI-compatible providers: OpenRouter
 * (https://openrouter.ai/api/v1) and Ollama (http://127.0.0.1:11434/v1). SDK retries are off; the
 * caller's signal cancels the HTTP request. None of these grounds citations: a request's passages are
 * written into the prompt (documents.ts).
 */
export function openAiProvider(options: OpenAiAdapterOptions): LlmProvider {
  const name = options.name ?? 'openai';
  // The SDK loads on the first call: a process with no OpenAI-compatible key never pays for it.
  let client: Promise<OpenAI> | undefined;
  const sdk = () =>
    (client ??= import('openai').then(
      ({ default: Sdk }) =>
        new Sdk({
          apiKey: options.apiKey,
          baseURL: options.baseURL ?? null,
          maxRetries: 0,
          logLevel: 'off',
          // The SDK would otherwise also pick these up from OPENAI_ORG_ID / OPENAI_PROJECT_ID.
          organization: null,
          project: null,
        }),
    ));
  const useMaxCompletionTokens = options.maxCompletionTokens ?? name === 'openai';
  const secrets = [options.apiKey];
  return {
    name,
    complete: async (request) => {
      const { signal } = request;
      const context = { provider: name, signal, secrets };
      const body: ChatCompletionCreateParamsStreaming = {
        model: request.model,
        messages: [
          { role: 'system', content: request.system },
          { role: 'user', content: promptWithDocuments(request) },
        ],
        stream: true,
        stream_options: { include_usage: true },
        ...(useMaxCompletionTokens
          ? { max_completion_tokens: request.maxTokens }
          : { max_tokens: request.maxTokens }),
        ...(request.json ? { response_format: { type: 'json_object' as const } } : {}),
      };
      try {
        const stream = await (await sdk()).chat.completions.create(body, { signal });
        const response: LlmResponse = { text: '', model: request.model, inputTokens: 0, outputTokens: 0 };
        for await (const chunk of stream) {
          if (chunk.model) response.model = chunk.model;
          const delta = chunk.choices[0]?.delta?.content;
          if (delta) {
            response.text += delta;
          }
          // Only the final chunk (empty choices) carries usage when include_usage is on.
          if (chunk.usage) {
            response.inputTokens = chunk.usage.prompt_tokens;
            response.outputTokens = chunk.usage.completion_tokens;
          }
        }
        if (signal.aborted) throw new LlmCallError('aborted', `${name}: call aborted`);
        return response;
      } catch (error) {
        throw toLlmCallError(error, context);
      }
    },
  };
}
