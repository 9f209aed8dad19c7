import { SSE_HEADERS, type SseWriter, sseComment, sseMessage, sseRetry } from '../sse-wire.ts';
import type { UwsStreamHandle } from './bridged-response.ts';

/**
 * Writers with bytes waiting, flushed together once per turn of the event loop (setImmediate): a burst of a
 * debate's events arriving in one turn leaves each socket as one send, not one send per event — on
 * loopback a send is most of what a write costs, and Node's http coalesces the same way. The flush runs
 * outside every request handler, so no other socket's cork is open (PLATFORM.md).
 */
const waiting = new Set<UwsSseWriter>();
let flushScheduled = false;
function flushSoon(writer: UwsSseWriter) {
  waiting.add(writer);
  if (flushScheduled) return;
  flushScheduled = true;
  setImmediate(() => {
    flushScheduled = false;
    const writers = [...waiting];
    waiting.clear();
    for (const each of writers) each.flush();
  });
}

/** When a client dropped for falling behind should come back: soon, it only has to read faster. */
const SLOW_CLIENT_RETRY_MS = 1000;

/**
 * An SSE stream written straight to uWebSockets.js. The head leaves corked with the first bytes; then what
 * a turn of the event loop gives the stream goes out in one corked send (`flushSoon`), messages already
 * encoded as bytes written as they are, so a thousand streams of one debate cost one encoding of each
 * event.
 *
 * A client that stops reading: uWebSockets.js keeps what it could not send and says so (`write` returns
 * false) until the socket drains. Past `maxBacklogBytes` written since then, the stream is ended with a
 * `retry:` hint; its EventSource reconnects with Last-Event-ID and is replayed what it missed. Nobody
 * else waits on it: each stream's writes go to its own socket.
 *
 * A class, its methods shared: an idle stream is mostly what it keeps, and a writer of closures kept a dozen
 * of them per stream (a tenth of its heap).
 */
export class UwsSseWriter implements SseWriter {
  readonly #stream: UwsStreamHandle;
  readonly #maxBacklogBytes: number;
  #closed = false;
  /**
   * Bytes written since uWebSockets.js last sent everything it was given; null while it has. It drains
   * its buffer by itself as the socket takes it (no onWritable handler: with one, it would leave the
   * draining to the handler), and a write that went out whole says the buffer is empty again.
   */
  #backlog: number | null = null;
  /** What this turn gave the stream, not sent yet. */
  #pending: (string | Buffer)[] = [];

  constructor(stream: UwsStreamHandle, maxBacklogBytes: number) {
    this.#stream = stream;
    this.#maxBacklogBytes = maxBacklogBytes;
  }

  get closed(): boolean {
    return this.#closed || !this.#stream.usable;
  }

  open(headers: Record<string, string> = {}) {
    if (this.closed) return;
    const res = this.#stream.uwsResponse;
    // As Node's writeHead: the headers set on the response before, then the stream's, the later winning.
    const all = new Map<string, [string, unknown]>();
    for (const [name, value] of [
      ...this.#stream.presetHeaders(),
      ...Object.entries({ ...headers, ...SSE_HEADERS }),
    ]) {
      all.set(name.toLowerCase(), [name, value]);
    }
    res.cork(() => {
      res.writeStatus('200 OK');
      for (const [name, value] of all.values()) {
        if (Array.isArray(value)) for (const each of value) res.writeHeader(name, String(each));
        else res.writeHeader(name, String(value));
      }
      // uWebSockets.js sends the head with the first body bytes (it has no flushHeaders): a comment,
      // which clients ignore, opens the stream now, as Node's flushHeaders does.
      res.write(sseComment('open'));
    });
    this.#stream.headSent();
  }

  send(id: number | string | null, event: string, data: unknown) {
    this.sendEncoded(sseMessage(id, event, data));
  }

  sendEncoded(chunk: string | Buffer) {
    if (this.closed) return;
    this.#pending.push(chunk);
    if (this.#pending.length === 1) flushSoon(this);
  }

  comment(text: string) {
    this.sendEncoded(sseComment(text));
  }

  close() {
    this.#finish();
  }

  closeForReconnect(retryMs: number) {
    this.#finish(sseRetry(retryMs, 'this server is shutting down; reconnect'));
  }

  /** What this turn gave the stream, in one corked send (flushSoon's). */
  flush() {
    const chunks = this.#takePending();
    if (chunks.length === 0 || this.closed) return;
    const res = this.#stream.uwsResponse;
    let sent = true;
    res.cork(() => {
      sent = this.#writeAll(chunks);
    });
    if (sent) this.#backlog = null;
    else {
      this.#backlog ??= 0;
      for (const chunk of chunks) this.#backlog += chunk.length;
      if (this.#backlog > this.#maxBacklogBytes) this.#finish(sseRetry(SLOW_CLIENT_RETRY_MS, 'too slow'));
    }
  }

  /** The pending chunks, none left pending: written in one cork they leave in one send, unconcatenated. */
  #takePending(): (string | Buffer)[] {
    const chunks = this.#pending;
    if (chunks.length > 0) this.#pending = [];
    return chunks;
  }

  /** Writes `chunks` (inside a cork); false when uWebSockets.js could not send them all. */
  #writeAll(chunks: (string | Buffer)[]): boolean {
    const res = this.#stream.uwsResponse;
    let sent = true;
    for (const chunk of chunks) sent = res.write(chunk) && sent;
    return sent;
  }

  #finish(last?: string) {
    if (this.#closed) return;
    this.#closed = true;
    waiting.delete(this);
    const rest = this.#takePending();
    if (!this.#stream.usable) return;
    const res = this.#stream.uwsResponse;
    // What was pending and the last words as chunks, then the end of the chunked body. (uWebSockets.js's
    // end with closeConnection would write a Connection header into the body here, as the head is long
    // sent.) A client dropped for not reading keeps its socket only until uWebSockets.js's timeout for a
    // response that does not drain (10 s).
    res.cork(() => {
      this.#writeAll(rest);
      if (last !== undefined) res.write(last);
      res.end();
    });
    this.#stream.ended();
  }
}
