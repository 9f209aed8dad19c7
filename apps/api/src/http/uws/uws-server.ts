import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpRequest, HttpResponse, TemplatedApp, us_listen_socket } from '@btc-vision/uwebsockets.js';
import { unexpectedFailure } from '@verdict/core';
import type { DirectReadsSlot } from '../direct-reads.ts';
import { writeAppError } from '../envelope.ts';
import { BridgedRequest } from './bridged-request.ts';
import { BridgedResponse } from './bridged-response.ts';
import { takeOnUws } from './direct-reads-on-uws.ts';
import type { Uws } from './load-uws.ts';
import { answerUnexpected } from './unexpected-answer.ts';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** How long a closing server leaves its connections to send what ended responses left buffered. */
const DRAIN_MS = 200;

/** uWebSockets.js's listen option that refuses a port another socket holds (its default shares it). */
const EXCLUSIVE_PORT = 1;
/** The listen its binary has and its types leave out: host, port and options together. */
type ListenWithOptions = (
  host: string,
  port: number,
  options: number,
  callback: (socket: us_listen_socket | false) => void,
) => TemplatedApp;

/**
 * The HTTP server Fastify runs on when streams are served by uWebSockets.js (Fastify's `serverFactory`):
 * one uWebSockets.js app on the API's address takes every request and hands it to Fastify's router as a
 * bridged request/response (bridged-request.ts, bridged-response.ts), so every route, hook, envelope and
 * log line is Fastify's as on Node's http; the stream routes then write their events to uWebSockets.js
 * directly (uws-sse-writer.ts). It offers what Fastify calls on Node's server: listen, address, close and
 * the two connection sweeps, with Node's meaning.
 */
export class UwsServer extends EventEmitter {
  listening = false;
  readonly #app: TemplatedApp;
  readonly #uws: Uws;
  #listenSocket: us_listen_socket | null = null;
  #address: { address: string; family: string; port: number } | null = null;
  /** Responses not yet ended or aborted (streams included). */
  #inFlight = 0;
  #closing: (() => void)[] | null = null;
  #appClosed = false;
  readonly #direct: DirectReadsSlot;
  readonly #onError: (err: unknown) => void;

  /** One function for every response, told when it is done (a listener of its own each cost a closure). */
  readonly #responseClosed = () => {
    this.#inFlight -= 1;
    this.#closeWhenIdle();
  };

  /**
   * `onError`: a failure of the bridge itself (Fastify's handler catches its own), which is logged; the
   * client gets the 500 envelope, as from any unexpected failure, and the process goes on.
   */
  constructor(
    uws: Uws,
    handler: Handler,
    onError: (err: unknown) => void,
    direct: DirectReadsSlot = { reads: null },
  ) {
    super();
    this.#uws = uws;
    this.#onError = onError;
    this.#direct = direct;
    this.#app = uws.App();
    this.#app.any('/*', (res, req) => {
      let response: BridgedResponse | null = null;
      try {
        if (this.#takenDirectly(res, req)) return;
        const request = new BridgedRequest(res, req);
        response = new BridgedResponse(res, request, this.#responseClosed);
        this.#inFlight += 1;
        handler(request as unknown as IncomingMessage, response as unknown as ServerResponse);
      } catch (err) {
        onError(err);
        if (response === null) answerUnexpected(res);
        else if (response.usable && !response.headersSent) {
          writeAppError(response as unknown as ServerResponse, unexpectedFailure(err));
        } else if (response.usable) response.destroy();
      }
    });
  }

  /** A plain read answered without Fastify (direct-reads.ts); never once the server closes. */
  #takenDirectly(res: HttpResponse, req: HttpRequest): boolean {
    const reads = this.#direct.reads;
    if (reads === null || this.#closing !== null || this.#appClosed) return false;
    if (!takeOnUws(reads, res, req, this.#responseClosed, this.#onError)) return false;
    this.#inFlight += 1;
    return true;
  }

  listen(options: { port?: number; host?: string }) {
    const host = options.host ?? '127.0.0.1';
    const port = options.port ?? 0;
    const listen = this.#app.listen as unknown as ListenWithOptions;
    listen.call(this.#app, host, port, EXCLUSIVE_PORT, (socket) => {
      if (!socket) {
        // uWebSockets.js does not say why; the port being taken is by far the usual reason (main.ts
        // checks it beforehand with Node's own words).
        const error = Object.assign(new Error(`listen ${host}:${port} failed`), { code: 'EADDRINUSE' });
        queueMicrotask(() => this.emit('error', error));
        return;
      }
      this.#listenSocket = socket;
      this.listening = true;
      const family = host.includes(':') ? 'IPv6' : 'IPv4';
      this.#address = { address: host, family, port: this.#uws.us_socket_local_port(socket as never) };
      queueMicrotask(() => this.emit('listening'));
    });
    return this;
  }

  address() {
    return this.#address;
  }

  /**
   * Stops accepting at once; the connections close once every response in flight has ended (the streams
   * have been told to reconnect by then: debate-stream.ts, notification-stream.ts), as Node's close does.
   */
  close(callback?: (err?: Error) => void) {
    if (this.#listenSocket) this.#uws.us_listen_socket_close(this.#listenSocket);
    this.#listenSocket = null;
    this.listening = false;
    if (this.#appClosed && !this.#closing) {
      if (callback) queueMicrotask(callback);
      return this;
    }
    this.#closing ??= [];
    if (callback) this.#closing.push(callback);
    this.#closeWhenIdle();
    return this;
  }

  /**
   * Idle keep-alive connections go when the server closes (close): uWebSockets.js cannot list them, so the
   * closing server's periodic sweep (graceful-close.ts) does nothing here.
   */
  closeIdleConnections() {}

  /** Cuts every connection, responses in flight included (the shutdown grace is over). */
  closeAllConnections() {
    this.#closeApp();
  }

  #closeWhenIdle() {
    if (!this.#closing || this.#inFlight > 0) return;
    const callbacks = this.#closing;
    this.#closing = null;
    // An ended response may still sit in uWebSockets.js's buffer (a download, a stream's last words to a
    // slow client); closing the sockets at once would cut it. A short, bounded wait lets it go out.
    setTimeout(() => {
      this.#closeApp();
      for (const callback of callbacks) callback();
      this.emit('close');
    }, DRAIN_MS).unref();
  }

  #closeApp() {
    if (this.#appClosed) return;
    this.#appClosed = true;
    this.#listenSocket = null;
    this.#app.close();
  }
}
