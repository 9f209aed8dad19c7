import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Clock, systemClock } from '@verdict/core';
import {
  citedBlocks,
  defaultCitations,
  documentsOf,
  type FakeCitation,
  type FakeTextBlock,
} from './fake-anthropic-citations.ts';

/**
 * A local stand-in for three LLM wire protocols, good enough for the official SDKs pointed at it through
 * their base-URL options: Anthropic Messages, OpenAI Chat Completions (also what OpenRouter and Ollama
 * speak) and Google Gemini generateContent / streamGenerateContent. Listens on 127.0.0.1, port 0.
 * Anthropic's citations too: a request with citable documents is answered with cited text blocks first
 * (fake-anthropic-citations.ts).
 *
 * Test-only: it never validates keys, and it records request bodies (and the key each request carried,
 * so a test can make a 401 echo it and check the adapter does not).
 */

export type FakeProtocol = 'anthropic' | 'openai' | 'google';

/** What the script sees of one request. */
export type FakeRequest = {
  /** 0-based, across all protocols. */
  index: number;
  protocol: FakeProtocol;
  path: string;
  model: string;
  stream: boolean;
  body: unknown;
  /** The key the client sent (x-api-key, Bearer token or x-goog-api-key). */
  apiKey: string | undefined;
  /** When its body had arrived (ms since the epoch): checks compare it with what the service stored when. */
  receivedAt: number;
};

/** One scripted answer. */
export type FakeReply =
  | {
      text: string;
      /** How the text is split into stream deltas; default: word by word. Must join to `text`. */
      chunks?: string[];
      /** Pause between stream chunks. */
      chunkDelayMs?: number;
      /** Stream this many chunks, then hold the connection open until the client leaves. */
      stallAfterChunks?: number;
      /** Stream this many chunks, then cut the connection (a reset mid-answer). */
      resetAfterChunks?: number;
      inputTokens?: number;
      outputTokens?: number;
      /**
       * Anthropic, to a request with document blocks whose citations are enabled: the spans the answer cites
       * before `text` (each in a block of its own). Default: the first sentence of each of the first two such
       * documents; [] cites nothing. Ignored for a request with no citable document.
       */
      citations?: FakeCitation[];
    }
  | { status: number; message?: string; retryAfterSeconds?: number }
  /** Accept the request and never answer: no status line, nothing, until the client closes. */
  | { stall: true }
  /** Cut the connection without answering. */
  | { reset: true };

/** Replies in order (the last one repeats when the queue runs out), or a function deciding per request. */
export type FakeScript = FakeReply[] | ((request: FakeRequest) => FakeReply | Promise<FakeReply>);

export type FakeRequestRecord = FakeRequest & {
  /**
   * How the exchange ended: 'completed' when the whole answer was written, 'server_reset' when the script
   * cut the connection, 'client_closed' when the client left first (an abort).
   */
  outcome: 'pending' | FakeOutcome;
  /** Resolves when the exchange ends. */
  settled: Promise<FakeOutcome>;
  /** Resolves when a stalling script has written what it writes and holds the answer open. */
  stalled: Promise<void>;
};

export type FakeOutcome = 'completed' | 'client_closed' | 'server_reset';

export type FakeLlmServer = {
  /** http://<host>:<port> (127.0.0.1 unless another address was asked for) */
  url: string;
  /** What each SDK wants as its base URL (OpenAI's ends in /v1). */
  baseUrls: { anthropic: string; openai: string; google: string };
  /** Every request received, in order. */
  requests: FakeRequestRecord[];
  /** Requests received per protocol (or in total). */
  count: (protocol?: FakeProtocol) => number;
  setScript: (script: FakeScript) => void;
  close: () => Promise<void>;
};

export const DEFAULT_FAKE_REPLY_TEXT = 'The fake model agrees with itself.';

export async function startFakeLlmServer(
  script: FakeScript = [{ text: DEFAULT_FAKE_REPLY_TEXT }],
  options: { host?: string; clock?: Clock } = {},
): Promise<FakeLlmServer> {
  const host = options.host ?? '127.0.0.1';
  const clock = options.clock ?? systemClock;
  let current = script;
  let queuePosition = 0;
  const requests: FakeRequestRecord[] = [];

  const nextReply = async (request: FakeRequest): Promise<FakeReply> => {
    if (typeof current === 'function') return current(request);
    const reply = current[Math.min(queuePosition, current.length - 1)];
    queuePosition += 1;
    return reply ?? { text: DEFAULT_FAKE_REPLY_TEXT };
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent && !res.destroyed) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `fake server failure: ${String(error)}` } }));
      } else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const raw = await readBody(req);
    const route = routeOf(req.method ?? 'GET', url);
    if (!route) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `no fake route for ${req.method} ${url.pathname}` } }));
      return;
    }
    let body: Record<string, unknown> = {};
    try {
      body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'invalid JSON body' } }));
      return;
    }
    const request: FakeRequest = {
      index: requests.length,
      protocol: route.protocol,
      path: url.pathname,
      model: route.model ?? String(body.model ?? ''),
      stream: route.stream ?? body.stream === true,
      body,
      apiKey: keyOf(req),
      receivedAt: clock.now(),
    };
    let settle: (outcome: FakeOutcome) => void = () => {};
    let holdOpen: () => void = () => {};
    const record: FakeRequestRecord = {
      ...request,
      outcome: 'pending',
      settled: new Promise((resolve) => {
        settle = resolve;
      }),
      stalled: new Promise((resolve) => {
        holdOpen = resolve;
      }),
    };
    requests.push(record);
    let reset = false;
    res.on('close', () => {
      record.outcome = res.writableFinished ? 'completed' : reset ? 'server_reset' : 'client_closed';
      settle(record.outcome);
    });
    const cut = () => {
      reset = true;
      res.destroy();
    };

    if (route.embedding) {
      // Embeddings follow the text, not the script, unless the script answers an error for them.
      const scripted = await nextReply(request);
      if ('status' in scripted) return writeError(res, request, scripted);
      return writeJson(res, 200, embeddingBody(route.embedding, body));
    }
    const reply = await nextReply(request);
    if ('stall' in reply) return; // hold until the client gives up; 'close' records it
    if ('reset' in reply) return cut();
    if ('status' in reply) return writeError(res, request, reply);
    const chunks = reply.chunks ?? splitWords(reply.text);
    const cited = request.protocol === 'anthropic' ? citedBlocksFor(body, reply.citations) : [];
    const citedWords = cited.reduce((sum, block) => sum + splitWords(block.text).length, 0);
    const usage = {
      input: reply.inputTokens ?? estimateTokens(JSON.stringify(body)),
      output: reply.outputTokens ?? Math.max(1, chunks.length + citedWords),
    };
    if (!request.stream) return writeJson(res, 200, completeBody(request, reply.text, usage, cited));
    await writeStream(res, request, chunks, usage, reply, cut, holdOpen, cited);
  }

  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://${host}:${port}`;
  return {
    url,
    baseUrls: { anthropic: url, openai: `${url}/v1`, google: url },
    requests,
    count: (protocol) =>
      protocol ? requests.filter((r) => r.protocol === protocol).length : requests.length,
    setScript: (next) => {
      current = next;
      queuePosition = 0;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

type Route = {
  protocol: FakeProtocol;
  model?: string;
  stream?: boolean;
  /** An embeddings endpoint, and which answer shape it has. */
  embedding?: 'openai' | 'google-single' | 'google-batch';
};

function routeOf(method: string, url: URL): Route | null {
  if (method !== 'POST') return null;
  if (url.pathname === '/v1/messages') return { protocol: 'anthropic' };
  if (url.pathname === '/v1/chat/completions') return { protocol: 'openai' };
  if (url.pathname === '/v1/embeddings') return { protocol: 'openai', embedding: 'openai' };
  const googleEmbed = /^\/v1(?:beta|alpha)?\/models\/([^/:]+):(embedContent|batchEmbedContents)$/.exec(
    decodeURIComponent(url.pathname),
  );
  if (googleEmbed) {
    return {
      protocol: 'google',
      model: googleEmbed[1] ?? '',
      embedding: googleEmbed[2] === 'embedContent' ? 'google-single' : 'google-batch',
    };
  }
  const google = /^\/v1(?:beta|alpha)?\/models\/([^/:]+):(generateContent|streamGenerateContent)$/.exec(
    decodeURIComponent(url.pathname),
  );
  if (google) {
    return { protocol: 'google', model: google[1] ?? '', stream: google[2] === 'streamGenerateContent' };
  }
  return null;
}

/** The cited blocks an Anthropic answer opens with: none unless the request has a citable document. */
function citedBlocksFor(body: unknown, scripted: FakeCitation[] | undefined): FakeTextBlock[] {
  const documents = documentsOf(body);
  if (!documents.some((document) => document.citable)) return [];
  return citedBlocks(documents, scripted ?? defaultCitations(documents));
}

function keyOf(req: IncomingMessage): string | undefined {
  const header = (name: string) => {
    const value = req.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const bearer = header('authorization')?.replace(/^Bearer\s+/i, '');
  return header('x-api-key') ?? header('x-goog-api-key') ?? bearer;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

const splitWords = (text: string) => text.split(/(?<=\s)/).filter((w) => w.length > 0);
const estimateTokens = (text: string) => Math.max(1, Math.ceil(text.length / 4));

function writeJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function writeError(
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

type Usage = { input: number; output: number };

function completeBody(request: FakeRequest, text: string, usage: Usage, cited: FakeTextBlock[]): unknown {
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

function googleChunk(request: FakeRequest, text: string, finishReason: string | undefined, usage?: Usage) {
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

async function writeStream(
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
  const send = (data: unknown, event?: string) => {
    if (res.destroyed) return;
    res.write(`${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
  };
  const id = randomUUID();
  const created = Math.floor(request.receivedAt / 1000);
  // The answer's own text comes after the cited blocks (Anthropic only).
  const answerIndex = cited.length;
  const openaiChunk = (delta: Record<string, unknown>, finish: string | null) => ({
    id: `chatcmpl-${id}`,
    object: 'chat.completion.chunk',
    created,
    model: request.model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });

  if (request.protocol === 'anthropic') {
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
    // Each cited block whole (its citation, then its words), before the answer's own text.
    for (const [index, block] of cited.entries()) {
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
    send(
      { type: 'content_block_start', index: answerIndex, content_block: { type: 'text', text: '' } },
      'content_block_start',
    );
  } else if (request.protocol === 'openai') {
    send(openaiChunk({ role: 'assistant', content: '' }, null));
  }

  const last = chunks.length - 1;
  for (const [i, chunk] of chunks.entries()) {
    if (reply.stallAfterChunks !== undefined && i >= reply.stallAfterChunks) return holdOpen();
    if (reply.resetAfterChunks !== undefined && i >= reply.resetAfterChunks) return cut();
    if (reply.chunkDelayMs) await sleep(reply.chunkDelayMs);
    if (res.destroyed) return;
    if (request.protocol === 'anthropic') {
      send(
        { type: 'content_block_delta', index: answerIndex, delta: { type: 'text_delta', text: chunk } },
        'content_block_delta',
      );
    } else if (request.protocol === 'openai') {
      send(openaiChunk({ content: chunk }, null));
    } else {
      // Gemini sends the running usage on every chunk and the finish reason on the last.
      send(googleChunk(request, chunk, i === last ? 'STOP' : undefined, i === last ? usage : undefined));
    }
  }
  if (reply.stallAfterChunks !== undefined && reply.stallAfterChunks >= chunks.length) return holdOpen();
  if (reply.resetAfterChunks !== undefined && reply.resetAfterChunks >= chunks.length) return cut();

  if (request.protocol === 'anthropic') {
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
  } else if (request.protocol === 'openai') {
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
  } else if (chunks.length === 0) {
    send(googleChunk(request, '', 'STOP', usage));
  }
  res.end();
}

/** Dimensions of the fake embeddings: small, the same for every model. */
export const FAKE_EMBEDDING_DIMENSIONS = 64;

/**
 * A deterministic embedding of `text`: each word of three letters or more adds ±1 at a position its hash
 * picks, so texts sharing words point the same way (cosine similarity follows word overlap).
 */
export function fakeEmbedding(text: string): number[] {
  const vector = new Array<number>(FAKE_EMBEDDING_DIMENSIONS).fill(0);
  for (const word of text.toLowerCase().match(/\p{L}{3,}/gu) ?? []) {
    let hash = 2166136261;
    for (const char of word) hash = Math.imul(hash ^ (char.codePointAt(0) ?? 0), 16777619);
    const index = (hash >>> 0) % FAKE_EMBEDDING_DIMENSIONS;
    vector[index] = (vector[index] ?? 0) + ((hash >>> 16) & 1 ? 1 : -1);
  }
  return vector;
}

function embeddingBody(shape: NonNullable<Route['embedding']>, body: Record<string, unknown>) {
  if (shape === 'openai') {
    const inputs = Array.isArray(body.input) ? body.input.map(String) : [String(body.input ?? '')];
    return {
      object: 'list',
      model: String(body.model ?? ''),
      data: inputs.map((input, index) => ({ object: 'embedding', index, embedding: fakeEmbedding(input) })),
      usage: {
        prompt_tokens: estimateTokens(inputs.join(' ')),
        total_tokens: estimateTokens(inputs.join(' ')),
      },
    };
  }
  const textOf = (content: unknown) =>
    ((content as { parts?: { text?: string }[] } | undefined)?.parts ?? [])
      .map((part) => part.text ?? '')
      .join(' ');
  if (shape === 'google-single') return { embedding: { values: fakeEmbedding(textOf(body.content)) } };
  const requests = (body.requests as { content?: unknown }[] | undefined) ?? [];
  return { embeddings: requests.map((request) => ({ values: fakeEmbedding(textOf(request.content)) })) };
}
