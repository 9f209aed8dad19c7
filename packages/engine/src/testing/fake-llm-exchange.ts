/**
 * One request to the fake LLM server, from its arrival to its answer: routed, recorded (with how it ends)
 * and answered as the script says, whole or streamed.
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock } from '@verdict/core';
import {
  citedBlocks,
  defaultCitations,
  documentsOf,
  type FakeCitation,
  type FakeTextBlock,
} from './fake-anthropic-citations.ts';
import { completeBody, estimateTokens, splitWords, writeError, writeJson } from './fake-llm-bodies.ts';
import { embeddingBody } from './fake-llm-embeddings.ts';
import { keyOf, readBody, routeOf } from './fake-llm-routes.ts';
import { writeStream } from './fake-llm-stream.ts';
import type { FakeOutcome, FakeReply, FakeRequest, FakeRequestRecord } from './fake-llm-types.ts';

/** What an exchange needs of its server: where requests are recorded, its clock, the script's next reply. */
export type ExchangeContext = {
  requests: FakeRequestRecord[];
  clock: Clock;
  nextReply: (request: FakeRequest) => Promise<FakeReply>;
};

/** How the answer may end early: `cut` resets the connection, `holdOpen` marks the stall reached. */
type ExchangeControl = { cut: () => void; holdOpen: () => void };

export async function handleExchange(context: ExchangeContext, req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const raw = await readBody(req);
  const route = routeOf(req.method ?? 'GET', url);
  if (!route) {
    return writeJson(res, 404, { error: { message: `no fake route for ${req.method} ${url.pathname}` } });
  }
  let body: Record<string, unknown> = {};
  try {
    body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
  } catch {
    return writeJson(res, 400, { error: { message: 'invalid JSON body' } });
  }
  const request: FakeRequest = {
    index: context.requests.length,
    protocol: route.protocol,
    path: url.pathname,
    model: route.model ?? String(body.model ?? ''),
    stream: route.stream ?? body.stream === true,
    body,
    apiKey: keyOf(req),
    receivedAt: context.clock.now(),
  };
  const control = recordExchange(context.requests, request, res);

  if (route.embedding) {
    // Embeddings follow the text, not the script, unless the script answers an error for them.
    const scripted = await context.nextReply(request);
    if ('status' in scripted) return writeError(res, request, scripted);
    return writeJson(res, 200, embeddingBody(route.embedding, body));
  }
  await answer(res, request, await context.nextReply(request), control);
}

/** Records the request, and how its exchange ends once the connection closes. */
function recordExchange(
  requests: FakeRequestRecord[],
  request: FakeRequest,
  res: ServerResponse,
): ExchangeControl {
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
  return { cut, holdOpen };
}

async function answer(res: ServerResponse, request: FakeRequest, reply: FakeReply, control: ExchangeControl) {
  if ('stall' in reply) return; // hold until the client gives up; 'close' records it
  if ('reset' in reply) return control.cut();
  if ('status' in reply) return writeError(res, request, reply);
  const chunks = reply.chunks ?? splitWords(reply.text);
  const cited = request.protocol === 'anthropic' ? citedBlocksFor(request.body, reply.citations) : [];
  const citedWords = cited.reduce((sum, block) => sum + splitWords(block.text).length, 0);
  const usage = {
    input: reply.inputTokens ?? estimateTokens(JSON.stringify(request.body)),
    output: reply.outputTokens ?? Math.max(1, chunks.length + citedWords),
  };
  if (!request.stream) return writeJson(res, 200, completeBody(request, reply.text, usage, cited));
  await writeStream(res, request, chunks, usage, reply, control.cut, control.holdOpen, cited);
}

/** The cited blocks an Anthropic answer opens with: none unless the request has a citable document. */
function citedBlocksFor(body: unknown, scripted: FakeCitation[] | undefined): FakeTextBlock[] {
  const documents = documentsOf(body);
  if (!documents.some((document) => document.citable)) return [];
  return citedBlocks(documents, scripted ?? defaultCitations(documents));
}
