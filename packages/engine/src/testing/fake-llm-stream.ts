/**
 * The fake LLM server's streamed answers: one writer for the chunks, their pauses, stalls and resets, and
 * per protocol the server-sent events that open the answer, carry each chunk and close it.
 */

import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FakeTextBlock } from './fake-anthropic-citations.ts';
import { googleChunk, splitWords, type Usage } from './fake-llm-bodies.ts';
import type { FakeRequest } from './fake-llm-types.ts';

type Send = (data: unknown, event?: string) => void;

/** What every protocol's frames are made from. */
type StreamContext = {
  res: ServerResponse;
  request: FakeRequest;
  usage: Usage;
  cited: FakeTextBlock[];
  send: Send;
  id: string;
  created: number;
};

/** The events one protocol wraps an answer's chunks in. */
type StreamFrames = {
  open: () => void;
  chunk: (text: string, isLast: boolean) => void;
  close: (chunkCount: number) => void;
};

export async function writeStream(
  res: ServerResponse,
  request: FakeRequest,
  chunks: string[],
  usage: Usage,
  reply: { chunkDelayMs?: number; stallAfterChunks?: number; resetAfterChunks?: number },
  cut: () => void,
  holdOpen: () => void,
  cited: FakeTextBlock[],
) {
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  res.flushHeaders();
  const send: Send = (data, event) => {
    if (res.destroyed) return;
    res.write(`${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
  };
  const created = Math.floor(request.receivedAt / 1000);
  const frames = framesOf({ res, request, usage, cited, send, id: randomUUID(), created });
  frames.open();

  const last = chunks.length - 1;
  for (const [i, chunk] of chunks.entries()) {
    if (reply.stallAfterChunks !== undefined && i >= reply.stallAfterChunks) return holdOpen();
    if (reply.resetAfterChunks !== undefined && i >= reply.resetAfterChunks) return cut();
    if (reply.chunkDelayMs) await sleep(reply.chunkDelayMs);
    if (res.destroyed) return;
    frames.chunk(chunk, i === last);
  }
  if (reply.stallAfterChunks !== undefined && reply.stallAfterChunks >= chunks.length) return holdOpen();
  if (reply.resetAfterChunks !== undefined && reply.resetAfterChunks >= chunks.length) return cut();

  frames.close(chunks.length);
  res.end();
}

function framesOf(context: StreamContext): StreamFrames {
  if (context.request.protocol === 'anthropic') return anthropicFrames(context);
  if (context.request.protocol === 'openai') return openaiFrames(context);
  return googleFrames(context);
}

function anthropicFrames({ request, usage, cited, send, id }: StreamContext): StreamFrames {
  // The answer's own text comes after the cited blocks.
  const answerIndex = cited.length;
  const open = () => {
    send(
      {
        type: 'message_start',
        message: {
          id: `msg_${id}`,
          type: 'message',
          role: 'assistant',
          model: request.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: usage.input, output_tokens: 1 },
        },
      },
      'message_start',
    );
    for (const [index, block] of cited.entries()) sendCitedBlock(send, index, block);
    send(
      { type: 'content_block_start', index: answerIndex, content_block: { type: 'text', text: '' } },
      'content_block_start',
    );
  };
  const chunk = (text: string) =>
    send(
      { type: 'content_block_delta', index: answerIndex, delta: { type: 'text_delta', text } },
      'content_block_delta',
    );
  const close = () => {
    send({ type: 'content_block_stop', index: answerIndex }, 'content_block_stop');
    send(
      {
        type: 'message_delta',
        delta: { stop_reason: 'end_turn', stop_sequence: null },
        usage: { output_tokens: usage.output },
      },
      'message_delta',
    );
    send({ type: 'message_stop' }, 'message_stop');
  };
  return { open, chunk, close };
}

/** Each cited block whole (its citation, then its words), before the answer's own text. */
function sendCitedBlock(send: Send, index: number, block: FakeTextBlock) {
  send(
    { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
    'content_block_start',
  );
  for (const citation of block.citations) {
    send(
      { type: 'content_block_delta', index, delta: { type: 'citations_delta', citation } },
      'content_block_delta',
    );
  }
  for (const words of splitWords(block.text)) {
    send(
      { type: 'content_block_delta', index, delta: { type: 'text_delta', text: words } },
      'content_block_delta',
    );
  }
  send({ type: 'content_block_stop', index }, 'content_block_stop');
}

function openaiFrames({ res, request, usage, send, id, created }: StreamContext): StreamFrames {
  const openaiChunk = (delta: Record<string, unknown>, finish: string | null) => ({
    id: `chatcmpl-${id}`,
    object: 'chat.completion.chunk',
    created,
    model: request.model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const close = () => {
    send(openaiChunk({}, 'stop'));
    const options = (request.body as { stream_options?: { include_usage?: boolean } }).stream_options;
    if (options?.include_usage) {
      send({
        id: `chatcmpl-${id}`,
        object: 'chat.completion.chunk',
        created,
        model: request.model,
        choices: [],
        usage: {
          prompt_tokens: usage.input,
          completion_tokens: usage.output,
          total_tokens: usage.input + usage.output,
        },
      });
    }
    res.write('data: [DONE]\n\n');
  };
  return {
    open: () => send(openaiChunk({ role: 'assistant', content: '' }, null)),
    chunk: (text) => send(openaiChunk({ content: text }, null)),
    close,
  };
}

function googleFrames({ request, usage, send }: StreamContext): StreamFrames {
  return {
    open: () => {},
    // Gemini sends the running usage on every chunk and the finish reason on the last.
    chunk: (text, isLast) =>
      send(googleChunk(request, text, isLast ? 'STOP' : undefined, isLast ? usage : undefined)),
    close: (chunkCount) => {
      if (chunkCount === 0) send(googleChunk(request, '', 'STOP', usage));
    },
  };
}
