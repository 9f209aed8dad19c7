import type Anthropic from '@anthropic-ai/sdk';
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages/messages';
import { toLlmCallError } from './errors.ts';
import { GroundedAnswer } from './grounded-citations.ts';
import { LlmCallError, type LlmProvider, type LlmRequest, type LlmResponse } from './port.ts';

export type AnthropicAdapterOptions = {
  apiKey: string;
  /** Defaults to the SDK's own (https://api.anthropic.com); tests point it at the fake server. */
  baseURL?: string | undefined;
};

/**
 * Anthropic Messages API, streamed. The SDK's retries are off (Effect owns retries and timeouts) and the
 * caller's signal goes to the SDK, so an abort cancels the HTTP request. JSON requests need nothing extra:
 * the judge's system prompt already asks for a single JSON object.
 *
 * A request's passages go as plain-text documents with citations enabled: the API grounds what the answer
 * cites in them (`char_location`), the adapter maps each citation to its passage (grounded-citations.ts),
 * tags the block it supports with `[E<n>]` and returns them in `citations`.
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
            messages: [userMessage(request)],
            stream: true,
          },
          { signal },
        );
        const response: LlmResponse = { text: '', model: request.model, inputTokens: 0, outputTokens: 0 };
        const answer = new GroundedAnswer(request.documents ?? []);
        for await (const event of stream) {
          switch (event.type) {
            case 'message_start':
              response.model = event.message.model || request.model;
              response.inputTokens = event.message.usage.input_tokens;
              response.outputTokens = event.message.usage.output_tokens;
              break;
            case 'content_block_start':
              if (event.content_block.type === 'text') answer.start(event.index, event.content_block);
              break;
            case 'content_block_delta':
              if (event.delta.type === 'text_delta' && event.delta.text) {
                answer.text(event.index, event.delta.text);
              } else if (event.delta.type === 'citations_delta') {
                answer.cite(event.index, event.delta.citation);
              }
              break;
            case 'message_delta':
              // Cumulative counts: the last message_delta has the totals.
              response.outputTokens = event.usage.output_tokens;
              if (event.usage.input_tokens != null) response.inputTokens = event.usage.input_tokens;
              break;
          }
        }
        response.text = answer.joined();
        const citations = answer.citations();
        if (citations.length > 0) response.citations = citations;
        // An aborted stream can end the loop quietly; a cut-short answer must not pass as complete.
        if (signal.aborted) throw new LlmCallError('aborted', 'anthropic: call aborted');
        return response;
      } catch (error) {
        throw toLlmCallError(error, context);
      }
    },
  };
}

/** The prompt as the user's message: alone, or after the passages as citable plain-text documents. */
function userMessage(request: LlmRequest): MessageParam {
  const documents = request.documents ?? [];
  if (documents.length === 0) return { role: 'user', content: request.prompt };
  return {
    role: 'user',
    content: [
      ...documents.map((document) => ({
        type: 'document' as const,
        source: { type: 'text' as const, media_type: 'text/plain' as const, data: document.text },
        // The id in the title lets the model name a passage the way the debater prompt asks.
        title: `[${document.evidenceId}] ${document.title}`,
        citations: { enabled: true },
      })),
      { type: 'text', text: request.prompt },
    ],
  };
}
