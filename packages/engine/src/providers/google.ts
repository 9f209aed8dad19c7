import type { GoogleGenAI } from '@google/genai';
import { promptWithDocuments } from './documents.ts';
import { toLlmCallError } from './errors.ts';
import { LlmCallError, type LlmProvider, type LlmResponse } from './port.ts';

export type GoogleAdapterOptions = {
  apiKey: string;
  /** Defaults to the SDK's own (https://generativelanguage.googleapis.com); the SDK appends /v1beta. */
  baseUrl?: string | undefined;
};

/**
 * Gemini API through @google/genai's generateContentStream. The SDK's own retries stay off (one attempt)
 * and so does its automatic stream continuation (it would reconnect behind our back); Effect owns both.
 * JSON requests set responseMimeType application/json. A request's passages are written into the prompt
 * (documents.ts): this adapter does not ground citations.
 */
export function googleProvider(options: GoogleAdapterOptions): LlmProvider {
  // The SDK loads on the first call: a process with no Google key never pays for it.
  let client: Promise<GoogleGenAI> | undefined;
  const sdk = () =>
    (client ??= import('@google/genai').then(
      ({ GoogleGenAI: Sdk }) =>
        new Sdk({
          apiKey: options.apiKey,
          vertexai: false,
          httpOptions: {
            ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
            retryOptions: { attempts: 1 },
          },
        }),
    ));
  const secrets = [options.apiKey];
  return {
    name: 'google',
    complete: async (request) => {
      const { signal } = request;
      const context = { provider: 'google', signal, secrets };
      try {
        const stream = await (await sdk()).models.generateContentStream({
          model: request.model,
          contents: promptWithDocuments(request),
          config: {
            systemInstruction: request.system,
            maxOutputTokens: request.maxTokens,
            abortSignal: signal,
            automaticContinuation: false,
            ...(request.json ? { responseMimeType: 'application/json' } : {}),
          },
        });
        const response: LlmResponse = { text: '', model: request.model, inputTokens: 0, outputTokens: 0 };
        for await (const chunk of stream) {
          if (chunk.modelVersion) response.model = chunk.modelVersion;
          const delta = textOf(chunk);
          if (delta) {
            response.text += delta;
          }
          // Running totals: the latest chunk that has them wins.
          const usage = chunk.usageMetadata;
          if (usage) {
            response.inputTokens = usage.promptTokenCount ?? response.inputTokens;
            response.outputTokens = usage.candidatesTokenCount ?? response.outputTokens;
          }
        }
        if (signal.aborted) throw new LlmCallError('aborted', 'google: call aborted');
        return response;
      } catch (error) {
        throw toLlmCallError(error, context);
      }
    },
  };
}

/** The chunk's text parts, skipping thought parts (the `text` getter would include them and warn). */
function textOf(chunk: {
  candidates?: { content?: { parts?: { text?: string; thought?: boolean }[] } }[];
}): string {
  const parts = chunk.candidates?.[0]?.content?.parts ?? [];
  return parts
    .filter((p) => !p.thought && typeof p.text === 'string')
    .map((p) => p.text)
    .join('');
}
