/** The fake LLM server's whole (not streamed) answers and errors, as each protocol shapes them. */

import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { FakeTextBlock } from './fake-anthropic-citations.ts';
import type { FakeRequest } from './fake-llm-types.ts';

export const splitWords = (text: string) => text.split(/(?<=\s)/).filter((w) => w.length > 0);
export const estimateTokens = (text: string) => Math.max(1, Math.ceil(text.length / 4));

export function writeJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

export function writeError(
  res: ServerResponse,
  request: FakeRequest,
  reply: { status: number; message?: string; retryAfterSeconds?: number },
) {
  const message = reply.message ?? `fake error ${reply.status}`;
  const headers: Record<string, string> = {};
  if (reply.retryAfterSeconds !== undefined) headers['retry-after'] = String(reply.retryAfterSeconds);
  if (request.protocol === 'anthropic') {
    const type =
      reply.status === 429
        ? 'rate_limit_error'
        : reply.status === 401
          ? 'authentication_error'
          : reply.status >= 500
            ? 'api_error'
            : 'invalid_request_error';
    return writeJson(res, reply.status, { type: 'error', error: { type, message } }, headers);
  }
  if (request.protocol === 'openai') {
    const type = reply.status === 429 ? 'rate_limit_exceeded' : reply.status >= 500 ? 'server_error' : null;
    return writeJson(res, reply.status, { error: { message, type, param: null, code: type } }, headers);
  }
  const status =
    reply.status === 429
      ? 'RESOURCE_EXHAUSTED'
      : reply.status === 401
        ? 'UNAUTHENTICATED'
        : reply.status >= 500
          ? 'INTERNAL'
          : 'INVALID_ARGUMENT';
  return writeJson(res, reply.status, { error: { code: reply.status, message, status } }, headers);
}

export type Usage = { input: number; output: number };

export function completeBody(
  request: FakeRequest,
  text: string,
  usage: Usage,
  cited: FakeTextBlock[],
): unknown {
  if (request.protocol === 'anthropic') {
    return {
      id: `msg_${randomUUID()}`,
      type: 'message',
      role: 'assistant',
      model: request.model,
      content: [
        ...cited.map((block) => ({ type: 'text', text: block.text, citations: block.citations })),
        { type: 'text', text },
      ],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: usage.input, output_tokens: usage.output },
    };
  }
  if (request.protocol === 'openai') {
    return {
      id: `chatcmpl-${randomUUID()}`,
      object: 'chat.completion',
      created: Math.floor(request.receivedAt / 1000),
      model: request.model,
      choices: [
        { index: 0, message: { role: 'assistant', content: text, refusal: null }, finish_reason: 'stop' },
      ],
      usage: {
        prompt_tokens: usage.input,
        completion_tokens: usage.output,
        total_tokens: usage.input + usage.output,
      },
    };
  }
  return googleChunk(request, text, 'STOP', usage);
}

export function googleChunk(
  request: FakeRequest,
  text: string,
  finishReason: string | undefined,
  usage?: Usage,
) {
  return {
    candidates: [
      {
        content: { role: 'model', parts: [{ text }] },
        index: 0,
        ...(finishReason ? { finishReason } : {}),
      },
    ],
    ...(usage
      ? {
          usageMetadata: {
            promptTokenCount: usage.input,
            candidatesTokenCount: usage.output,
            totalTokenCount: usage.input + usage.output,
          },
        }
      : {}),
    modelVersion: request.model,
    responseId: randomUUID(),
  };
}
