import type { ServerResponse } from 'node:http';
import { countOpenStream } from './metrics.ts';
import {
  MAX_BUFFERED_BYTES,
  SSE_HEADERS,
  type SseWriter,
  sseComment,
  sseMessage,
  sseRetry,
} from './sse-wire.ts';
import { BridgedResponse } from './uws/bridged-response.ts';
import { UwsSseWriter } from './uws/uws-sse-writer.ts';

/**
 * The writer for a hijacked response, whichever server carries it: uWebSockets.js's (http/uws/) or
 * Node's http.
 */
export function sseWriterFor(res: ServerResponse | BridgedResponse): SseWriter {
  if (!(res instanceof BridgedResponse)) return nodeSseWriter(res);
  countOpenStream(res);
  const writer = new UwsSseWriter(res, MAX_BUFFERED_BYTES);
  res.takeOver(writer);
  return writer;
}

/** The writer over a Node response (Fastify's `reply.raw` after `reply.hijack()`). */
export function nodeSseWriter(res: ServerResponse, maxBufferedBytes = MAX_BUFFERED_BYTES): SseWriter {
  countOpenStream(res);
  let closed = false;
  res.once('close', () => {
    closed = true;
  });
  const write = (chunk: string | Buffer) => {
    if (closed || res.writableEnded || res.destroyed) return;
    res.write(chunk);
    if (res.writableLength > maxBufferedBytes) {
      closed = true;
      res.destroy();
    }
  };
  return {
    open: (headers = {}) => {
      res.writeHead(200, { ...headers, ...SSE_HEADERS });
      // Without a first body chunk Node holds the headers back; the client should see the stream open now.
      res.flushHeaders();
    },
    send: (id, event, data) => write(sseMessage(id, event, data)),
    sendEncoded: write,
    comment: (text) => write(sseComment(text)),
    close: () => {
      if (closed) return;
      closed = true;
      if (!res.writableEnded && !res.destroyed) res.end();
    },
    closeForReconnect: (retryMs) => {
      if (closed) return;
      closed = true;
      if (!res.writableEnded && !res.destroyed) {
        res.end(sseRetry(retryMs, 'this server is shutting down; reconnect'));
      }
    },
    get closed() {
      return closed || res.writableEnded || res.destroyed;
    },
  };
}
