import { STATUS_CODES, validateHeaderName, validateHeaderValue } from 'node:http';
import { Writable } from 'node:stream';
import type { HttpResponse } from '@btc-vision/uwebsockets.js';
import { type HeaderBlock, takeHeaderBlock } from '../header-block.ts';
import type { BridgedRequest, BridgedSocket } from './bridged-request.ts';

type HeaderValue = string | number | readonly string[];

/** A value Node's http refuses (validateHeaderValue's test). */
const INVALID_VALUE = /[^\t\x20-\x7e\x80-\xff]/;
/** Names already checked: they come from the code, a few dozen, and Node's check is the costly part. */
const checkedNames = new Set<string>();

/** Node's header checks, with Node's errors; a valid name is checked once, a string value by one test. */
function checkHeader(name: string, value: HeaderValue) {
  if (!checkedNames.has(name)) {
    validateHeaderName(name);
    if (checkedNames.size < 1024) checkedNames.add(name);
  }
  if (typeof value === 'string' && !INVALID_VALUE.test(value)) return;
  for (const each of Array.isArray(value) ? value : [value]) validateHeaderValue(name, String(each));
}

/** Headers uWebSockets.js writes itself from how the body is sent (Content-Length or chunked). */
const FRAMING = new Set(['content-length', 'transfer-encoding']);
/**
 * The headers of a response whose head is on the wire: none, and shared by every such response (an idle
 * stream kept a table of its own for hours). Whoever sets one after that gets a map of its own first.
 */
const SENT: Map<string, [name: string, value: HeaderValue]> = new Map();

/** Statuses that carry no body (RFC 9110): answered without one, whatever was written. */
const BODYLESS = new Set([204, 304]);

/**
 * A response written through uWebSockets.js, as Node's ServerResponse for Fastify: headers collected,
 * then the status line, headers and body in one corked write. A body passed whole to `end` (every JSON
 * answer) goes out as one `end` with its Content-Length; a streamed body (a file, an export) goes out
 * chunked, each chunk waiting for the client to take the previous ones (uWebSockets.js's onWritable).
 * Once the client is gone, nothing touches uWebSockets.js's response again: it is invalid then.
 *
 * A stream route takes the response over instead (`takeOver`): its SSE writer (uws-sse-writer.ts) then
 * writes to uWebSockets.js directly.
 */
export class BridgedResponse extends Writable {
  statusCode = 200;
  statusMessage = '';
  headersSent = false;
  sendDate = false;
  readonly socket: BridgedSocket;
  readonly req: BridgedRequest;
  #res: HttpResponse;
  #headers = new Map<string, [name: string, value: HeaderValue]>();
  /** Headers shared with other responses, written in one go: none of their names is in #headers meanwhile. */
  #block: HeaderBlock | null = null;
  #gone = false;
  #ended = false;
  /** A stream's writer, told if the client goes away (takeOver). */
  #onGone: { close(): void } | null = null;
  #waitingToWrite: (() => void) | null = null;

  readonly #onDone: (() => void) | undefined;

  /** `onDone`: called once, when the response is done with (ended, destroyed, or its client gone). */
  constructor(res: HttpResponse, req: BridgedRequest, onDone?: () => void) {
    super();
    this.#res = res;
    this.req = req;
    this.socket = req.socket;
    this.#onDone = onDone;
    res.onAborted(() => this.#aborted());
  }

  /** The client went away before the response ended (or the server was closed under it). */
  #aborted() {
    this.#gone = true;
    this.req.discardBody(false);
    this.req.abort();
    const waiting = this.#waitingToWrite;
    this.#waitingToWrite = null;
    waiting?.();
    const onGone = this.#onGone;
    if (!onGone) return void this.destroy();
    // A stream whose client left ends as Node's does: 'finish' (the request's log line, metric and span),
    // then 'close'.
    this.#onGone = null;
    onGone.close();
    this.end();
  }

  /** Whether uWebSockets.js's response may still be written. */
  get usable(): boolean {
    return !this.#gone && !this.#ended;
  }

  setHeader(name: string, value: HeaderValue) {
    // Node's checks: a name or value that would break the head (a line break, a control character) throws.
    checkHeader(name, value);
    const lower = name.toLowerCase();
    if (this.#block?.has(lower)) this.#spreadBlock();
    if (this.#headers === SENT) this.#headers = new Map();
    this.#headers.set(lower, [name, value]);
    return this;
  }
  /** A block's headers as if each had been set (security-headers.ts): the block stays shared, unless changed. */
  [takeHeaderBlock](block: HeaderBlock) {
    if (this.#block !== null || block.entries.some(([name]) => this.#headers.has(name.toLowerCase()))) {
      for (const [name, value] of block.entries) this.setHeader(name, value);
    } else this.#block = block;
  }
  /** One of the block's headers is changed: from now on they are this response's own, in the block's order. */
  #spreadBlock() {
    const block = this.#block;
    if (block === null) return;
    this.#block = null;
    const own = this.#headers;
    this.#headers = new Map(block.entries.map(([name, value]) => [name.toLowerCase(), [name, value]]));
    for (const [lower, header] of own) this.#headers.set(lower, header);
  }
  /** Every header, the block's first, as [name, value] in the order they were set. */
  #allHeaders(): [name: string, value: HeaderValue][] {
    return [...(this.#block?.entries ?? []), ...this.#headers.values()] as [string, HeaderValue][];
  }
  getHeader(name: string) {
    const lower = name.toLowerCase();
    return this.#headers.get(lower)?.[1] ?? this.#block?.get(lower);
  }
  getHeaders() {
    return Object.fromEntries(this.#allHeaders().map(([name, value]) => [name.toLowerCase(), value]));
  }
  getHeaderNames() {
    return this.#allHeaders().map(([name]) => name.toLowerCase());
  }
  hasHeader(name: string) {
    const lower = name.toLowerCase();
    return this.#headers.has(lower) || this.#block?.has(lower) === true;
  }
  removeHeader(name: string) {
    const lower = name.toLowerCase();
    if (this.#block?.has(lower)) this.#spreadBlock();
    if (this.#headers !== SENT) this.#headers.delete(lower);
  }
  writeHead(status: number, ...rest: unknown[]) {
    this.statusCode = status;
    const headers = (typeof rest[0] === 'object' ? rest[0] : rest[1]) as
      | Record<string, HeaderValue | undefined>
      | null
      | undefined;
    if (typeof headers !== 'object' || headers === null) return this;
    for (const name in headers) {
      const value = headers[name];
      if (value !== undefined) this.setHeader(name, value);
    }
    return this;
  }
  flushHeaders() {}

  /**
   * Status line and headers into the corked response, once, as one string: uWebSockets.js writes the status
   * it is given and then CRLF, so the header lines go in the same call (a call per header, each crossing
   * into C++, was a fifth of a small answer's CPU). Every name and value was checked when it was set (Node's
   * checks: no CR or LF), as uWebSockets.js's writeHeader would not have either. `endsNow`: the body goes
   * with uWebSockets.js's end, which writes Connection itself when it closes the connection.
   */
  #writeHead(endsNow = false) {
    if (this.headersSent) return;
    this.headersSent = true;
    let head = `${this.statusCode} ${this.statusMessage || STATUS_CODES[this.statusCode] || ''}`;
    if (this.#block !== null) head += `\r\n${this.#block.wire}`;
    for (const [lower, [name, value]] of this.#headers) {
      if (FRAMING.has(lower) || (endsNow && lower === 'connection')) continue;
      if (Array.isArray(value)) for (const each of value) head += `\r\n${name}: ${each}`;
      else head += `\r\n${name}: ${value}`;
    }
    this.#res.writeStatus(head);
  }

  #closesConnection(): boolean {
    return String(this.getHeader('connection') ?? '').toLowerCase() === 'close';
  }

  /** The whole answer in one go: what every JSON response is. */
  #endWith(body: Buffer | string | undefined) {
    if (this.#gone || this.#ended) return;
    this.#ended = true;
    this.req.discardBody(true);
    const res = this.#res;
    res.cork(() => {
      if (this.#bodyless()) {
        // No body and, for 204/304, no Content-Length (endWithoutBody with any argument writes one); a HEAD
        // answer reports the length the GET would have. Connection stays as the headers say.
        this.#writeHead(false);
        const length = Number(this.getHeader('content-length'));
        if (this.req.method === 'HEAD' && Number.isFinite(length)) res.endWithoutBody(length);
        else res.endWithoutBody();
      } else {
        this.#writeHead(true);
        res.end(body ?? '', this.#closesConnection());
      }
    });
  }

  /** Answers that carry no body, whatever is written: HEAD's, 204 and 304. */
  #bodyless(): boolean {
    return BODYLESS.has(this.statusCode) || this.req.method === 'HEAD';
  }

  override end(chunk?: unknown, encoding?: unknown, callback?: unknown): this {
    if (typeof chunk === 'function') return this.end(undefined, undefined, chunk);
    if (typeof encoding === 'function') return this.end(chunk, undefined, encoding);
    if (!this.headersSent && !this.writableEnded && !this.#ended) {
      // Nothing streamed yet: status, headers and body leave as one write, with their Content-Length.
      const body =
        chunk === undefined || chunk === null
          ? undefined
          : typeof chunk === 'string'
            ? Buffer.from(chunk, (encoding as BufferEncoding | undefined) ?? 'utf8')
            : (chunk as Buffer);
      this.#endWith(body);
      return super.end(callback as (() => void) | undefined);
    }
    return super.end(chunk as Buffer, encoding as BufferEncoding, callback as () => void);
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void) {
    if (this.#gone || this.#ended || chunk.length === 0) return done();
    if (this.#bodyless()) {
      // Node drops a body written to an answer that has none; the head goes out at the end.
      return done();
    }
    let writable = true;
    this.#res.cork(() => {
      this.#writeHead();
      writable = this.#res.write(chunk);
    });
    if (writable) return done();
    // The client has not taken what was written: the next chunk waits until it has.
    this.#waitingToWrite = done;
    this.#res.onWritable(() => {
      const waiting = this.#waitingToWrite;
      this.#waitingToWrite = null;
      waiting?.();
      return true;
    });
  }

  override _final(done: (error?: Error | null) => void) {
    // Only a streamed body ends here: an answer whose head was not sent yet ended in `end`.
    if (!this.#gone && !this.#ended && this.headersSent) {
      this.#ended = true;
      this.req.discardBody(true);
      this.#res.cork(() => this.#res.end());
    } else if (!this.#gone && !this.#ended) this.#endWith(undefined);
    done();
  }

  override _destroy(error: Error | null, done: (error?: Error | null) => void) {
    // Destroyed before it ended (a stream route hung up on, a pipe that failed): the connection goes too.
    if (!this.#gone && !this.#ended) {
      this.#ended = true;
      this.req.discardBody(true);
      this.#res.close();
    }
    // Every response comes here once, just before its 'close': after its end (autoDestroy), or destroyed.
    this.#onDone?.();
    done(error);
  }

  /**
   * Hands uWebSockets.js's response to a stream route's writer (after Fastify's `reply.hijack()`), which
   * holds this response as its handle (UwsStreamHandle: a stream keeps no closures of its own here) and is
   * closed once if the client goes away. The writer must check `usable` before each write, as
   * uWebSockets.js's response is invalid after that.
   */
  takeOver(writer: { close(): void }): UwsStreamHandle {
    this.#onGone = writer;
    // The peer's address is read now, while uWebSockets.js's response is this object's to read.
    void this.socket.remoteAddress;
    // A stream's request has no body to wait for; what a client sends anyway is dropped.
    this.req.discardBody(true);
    this.req.keepOnlyStreamHeaders();
    return this;
  }

  /** uWebSockets.js's response, for the writer of a stream that took it over. */
  get uwsResponse(): HttpResponse {
    return this.#res;
  }

  /** Headers set on the response before the route took it over (helmet's): sent with the stream's. */
  presetHeaders(): [name: string, value: HeaderValue][] {
    return this.#allHeaders();
  }

  /** The stream's writer sent the status line and headers. */
  headSent() {
    this.headersSent = true;
    // Forgotten once they are on the wire: nothing reads a stream's headers after, and an idle stream
    // kept them for hours (a kibibyte each, a tenth of its heap).
    this.#headers = SENT;
    this.#block = null;
  }

  /** The stream's writer ended the response: nothing may touch uWebSockets.js's response again. */
  ended() {
    this.#ended = true;
    // As Node's response: 'finish' (Fastify's onResponse: the request's log line, metric and span),
    // then 'close', on which the routes stop following.
    this.end();
  }
}

/** What a stream's writer holds of a taken-over response (the response itself). */
export type UwsStreamHandle = {
  readonly uwsResponse: HttpResponse;
  /** Headers set on the response before the route took it over (helmet's): sent with the stream's, as Node does. */
  presetHeaders(): [name: string, value: HeaderValue][];
  /** False once the client is gone or the stream has ended. */
  readonly usable: boolean;
  /** The writer sent the status line and headers (the route may no longer answer with an envelope). */
  headSent(): void;
  /** The writer ended the response: nothing may touch it again. */
  ended(): void;
};
