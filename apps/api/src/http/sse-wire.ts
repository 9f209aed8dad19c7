// The wire format of a Server-Sent Events stream and the writer's interface, shared by both servers' writers
// (`sse-writer.ts` for Node's http, `uws/uws-sse-writer.ts` for uWebSockets.js) without either importing the other.

/**
 * One Server-Sent Events stream, whatever carries it. Routes talk to this interface only, so another
 * transport (an HTTP/2 stream, a test double) can be added without touching them.
 */
export type SseWriter = {
  /** Sends the status line and headers (200, text/event-stream, no caching or proxy buffering) at once. */
  open: (headers?: Record<string, string>) => void;
  /**
   * One message: `id: <id>\nevent: <event>\ndata: <json>\n\n`; a null id sends no `id:` line (the client
   * keeps its last event id). Ignored once closed.
   */
  send: (id: number | string | null, event: string, data: unknown) => void;
  /** A message already encoded by sseMessage (as bytes): one encoding for every stream that sends it. */
  sendEncoded: (message: string | Buffer) => void;
  /** A comment line (`: <text>`), which clients ignore: keeps proxies and idle timers from closing the stream. */
  comment: (text: string) => void;
  /** Ends the stream cleanly; idempotent. */
  close: () => void;
  /**
   * Ends the stream telling the client to reconnect in `retryMs` (the SSE `retry:` field, which EventSource
   * obeys): what a process that is shutting down says to its streams. Idempotent, like close.
   */
  closeForReconnect: (retryMs: number) => void;
  readonly closed: boolean;
};

export const SSE_HEADERS = {
  // SSE is UTF-8 by definition; no charset parameter.
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no',
} as const;

/** Field values must not contain line breaks: each would start a new field. */
const oneLine = (value: string) => value.replace(/[\r\n]+/g, ' ');

/**
 * What may wait in a stream's buffer for a client that does not read. Past it the client is dropped: its
 * EventSource reconnects with Last-Event-ID and is replayed what it missed, while the process neither holds
 * an ever-growing buffer for it nor slows anyone else down.
 */
export const MAX_BUFFERED_BYTES = 1024 * 1024;

/** A comment line, which clients ignore. */
export const sseComment = (text: string) => `: ${oneLine(text)}\n\n`;

/** The last words of a stream that asks its client to reconnect in `retryMs` (EventSource obeys `retry:`). */
export const sseRetry = (retryMs: number, why: string) =>
  `retry: ${Math.max(0, Math.round(retryMs))}\n${sseComment(why)}`;

/** One message as it goes on the wire (SseWriter.send). */
export function sseMessage(id: number | string | null, event: string, data: unknown): string {
  const idLine = id === null ? '' : `id: ${oneLine(String(id))}\n`;
  return `${idLine}event: ${oneLine(event)}\ndata: ${JSON.stringify(data)}\n\n`;
}
