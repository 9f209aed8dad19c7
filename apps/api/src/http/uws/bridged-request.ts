import { EventEmitter } from 'node:events';
import type { IncomingHttpHeaders } from 'node:http';
import { Readable } from 'node:stream';
import type { HttpRequest, HttpResponse } from '@btc-vision/uwebsockets.js';
import ipaddr from 'ipaddr.js';

/**
 * Headers Node's http keeps only the first of when a request repeats them (its IncomingMessage rules):
 * a second Authorization or Content-Type must not be joined into a value no one sent.
 */
const FIRST_ONLY = new Set([
  'age',
  'authorization',
  'content-length',
  'content-type',
  'etag',
  'expires',
  'from',
  'host',
  'if-modified-since',
  'if-unmodified-since',
  'last-modified',
  'location',
  'max-forwards',
  'proxy-authorization',
  'referer',
  'retry-after',
  'server',
  'user-agent',
]);

/** The headers a stream's request keeps once the stream runs (`keepOnlyStreamHeaders`). */
const KEPT_FOR_STREAMS = ['host', 'x-request-id', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto'];

/**
 * What Fastify and the routes read of a request's connection: its peer address, that it is not TLS, and
 * whether it is gone. One per request: uWebSockets.js does not expose its connections.
 */
export class BridgedSocket extends EventEmitter {
  readonly encrypted = false;
  destroyed = false;
  #response: HttpResponse | null;
  #remoteAddress: string | undefined;
  constructor(response: HttpResponse) {
    super();
    this.#response = response;
  }
  /**
   * Read from uWebSockets.js when first asked (the per-IP limits, during the request): reading it for every
   * request cost a twentieth of a health check's CPU. As Node's socket, one whose address nobody read while
   * it was connected has none (undefined) after.
   */
  get remoteAddress(): string | undefined {
    if (this.#response !== null) {
      this.#remoteAddress = peerAddress(this.#response);
      this.#response = null;
    }
    return this.#remoteAddress;
  }
  /** uWebSockets.js's response is ending or gone: it may not be read from again. */
  forgetResponse() {
    this.#response = null;
  }
  destroy() {
    this.forgetResponse();
    if (this.destroyed) return this;
    this.destroyed = true;
    this.emit('close');
    return this;
  }
  // Fastify may set a timeout hook on it; uWebSockets.js times connections out itself.
  setTimeout() {
    return this;
  }
}

/**
 * A request read by uWebSockets.js, as Node's IncomingMessage for Fastify: method, url, headers joined by
 * Node's rules, and the body as a readable stream fed by uWebSockets.js (paused while the reader is full).
 * Everything is copied out of uWebSockets.js's request during its handler, as it lives only that long.
 */
export class BridgedRequest extends Readable {
  readonly httpVersion = '1.1';
  readonly httpVersionMajor = 1;
  readonly httpVersionMinor = 1;
  readonly method: string;
  url: string;
  headers: IncomingHttpHeaders;
  rawHeaders: string[];
  readonly socket: BridgedSocket;
  aborted = false;
  complete = false;
  #response: HttpResponse;
  #paused = false;

  constructor(res: HttpResponse, req: HttpRequest) {
    super();
    this.#response = res;
    this.method = req.getCaseSensitiveMethod();
    const query = req.getQuery();
    this.url = query ? `${req.getUrl()}?${query}` : req.getUrl();
    const raw: string[] = [];
    req.forEach((name, value) => {
      raw.push(name, value);
    });
    this.headers = joinHeaders(raw);
    this.rawHeaders = raw;
    this.socket = new BridgedSocket(res);
    if (hasBody(this.headers)) this.#readBody(res);
    else this.#finish();
  }

  /**
   * Set once the response no longer takes writes (ended, taken over by a stream, or gone): uWebSockets.js
   * may still hand over body bytes then, and its response must not be touched again (pause/resume on an
   * ended response throws). The rest of the body is read and dropped, as Node discards a body nobody read.
   */
  #discarding = false;

  #readBody(res: HttpResponse) {
    res.onData((chunk, isLast) => {
      if (!this.#discarding && !this.destroyed && chunk.byteLength > 0) {
        // uWebSockets.js reuses the chunk's memory once this returns: copy it.
        if (!this.push(Buffer.copyBytesFrom(new Uint8Array(chunk)))) {
          this.#paused = true;
          res.pause();
        }
      }
      if (isLast) this.#finish();
    });
  }

  #finish() {
    this.complete = true;
    if (!this.destroyed) this.push(null);
  }

  override _read() {
    if (!this.#paused || this.#discarding) return;
    this.#paused = false;
    this.#response.resume();
  }

  /**
   * The response is about to end or be taken over (`responseUsable`: uWebSockets.js's response may still
   * be called now): a paused body is resumed so the rest of it can arrive and be dropped.
   */
  discardBody(responseUsable: boolean) {
    this.#discarding = true;
    this.socket.forgetResponse();
    if (!this.#paused || !responseUsable) return;
    this.#paused = false;
    this.#response.resume();
  }

  /**
   * A stream's request is read again only when the stream ends, hours later maybe (the log line's client
   * request id; Fastify's host and, behind proxies, ip): the rest of its headers — its credentials among
   * them — is let go rather than kept as long (a tenth of an idle stream's heap).
   */
  keepOnlyStreamHeaders() {
    const kept: IncomingHttpHeaders = {};
    for (const name of KEPT_FOR_STREAMS)
      if (this.headers[name] !== undefined) kept[name] = this.headers[name];
    this.headers = kept;
    this.rawHeaders = [];
  }

  /** Destroyed before its body arrived (a reader gave up on it): the rest is dropped. */
  override _destroy(error: Error | null, done: (error?: Error | null) => void) {
    this.#discarding = true;
    done(error);
  }

  /** The client went away (uWebSockets.js's onAborted): Node's request says so the same way. */
  abort() {
    if (this.aborted) return;
    this.aborted = true;
    this.#discarding = true;
    this.socket.destroy();
    this.emit('aborted');
    // As Node's IncomingMessage: a body cut short is an error to whoever reads it (Fastify's body reader
    // then answers and logs it), and only to someone listening, so it never goes unhandled.
    if (!this.complete && this.listenerCount('error') > 0) {
      this.destroy(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
    } else this.destroy();
  }
}

/** `[name, value, name, value …]` (lower-case names, as uWebSockets.js gives them) as Node's headers object. */
export function joinHeaders(raw: readonly string[]): IncomingHttpHeaders {
  const headers: IncomingHttpHeaders = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] as string;
    const value = raw[i + 1] as string;
    const existing = headers[name];
    if (existing === undefined) headers[name] = name === 'set-cookie' ? [value] : value;
    else if (name === 'set-cookie') (existing as string[]).push(value);
    else if (!FIRST_ONLY.has(name)) headers[name] = `${existing}${name === 'cookie' ? '; ' : ', '}${value}`;
  }
  return headers;
}

function hasBody(headers: IncomingHttpHeaders): boolean {
  if (headers['transfer-encoding'] !== undefined) return true;
  const length = headers['content-length'];
  return length !== undefined && length !== '0';
}

/** Peers' addresses as uWebSockets.js writes them → as Node gives them; a client sends many requests. */
const normalizedPeers = new Map<string, string>();

/** The peer's address as Node gives it: IPv4 dotted (an IPv4-mapped IPv6 address too), IPv6 compressed. */
export function peerAddress(res: HttpResponse): string {
  const text = Buffer.from(res.getRemoteAddressAsText()).toString('latin1');
  // An IPv4 listener's peers are dotted already: parsing them on every request would cost for nothing.
  if (!text.includes(':')) return text;
  const known = normalizedPeers.get(text);
  if (known !== undefined) return known;
  let address: string;
  try {
    address = ipaddr.process(text).toString();
  } catch {
    address = text;
  }
  // Bounded: many peers start over rather than grow it.
  if (normalizedPeers.size >= 4096) normalizedPeers.clear();
  normalizedPeers.set(text, address);
  return address;
}
