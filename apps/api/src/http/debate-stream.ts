import { errorStatus, LastEventSeq, UuidInput } from '@verdict/contracts';
import {
  AppError,
  type FeedFollower,
  type Services,
  type StoredEvent,
  unexpectedFailure,
} from '@verdict/core';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { type Credentials, openStream } from '../auth/authenticate.ts';
import {
  type DebateStreamStart,
  debateStreamStart,
  streamsNothing,
  TERMINAL_EVENTS,
} from '../streams/debate-stream-start.ts';
import { everyBeat } from '../streams/heartbeats.ts';
import { type OpenStreams, openStreamsOf, type StreamEnder } from '../streams/open-streams.ts';
import { parseStreamParameter } from '../streams/stream-parameters.ts';
import { streamData } from './debate-stream-data.ts';
import { sendAppError } from './envelope.ts';
import { type SseWriter, sseMessage } from './sse-wire.ts';
import { sseWriterFor } from './sse-writer.ts';
import { routeEndpoint } from './usage-counting.ts';

export type DebateStreamOptions = {
  /** Interval of the `: keep-alive` comment on a stream that follows a running debate; default 15 s. */
  keepAliveMs?: number;
};

const Params = z.object({ id: UuidInput });

/**
 * The debate stream over SSE, as plain routes (tRPC does not stream this shape): /v1 with an API key, and
 * /api (the streamUrl of POST /api/debates) with a key or the session cookie, so a browser's EventSource
 * can open it. The stored events of the current attempt are replayed after Last-Event-ID, then live ones
 * follow from the bus until debate.completed or debate.failed ends the stream.
 */
export function registerDebateStreams(
  app: FastifyInstance,
  core: Services,
  options: DebateStreamOptions = {},
) {
  const keepAliveMs = options.keepAliveMs ?? 15_000;
  // Closing the app ends each open stream with a `retry:` hint before the server stops accepting and destroys
  // sockets: its EventSource resumes (Last-Event-ID) on a process that is not going away.
  const open = openStreamsOf(app);
  // What every stream of the app shares, made once (each stream keeps a reference, not a copy).
  const context: StreamContext = { core, open, keepAliveMs };

  const route = (credentials: Credentials) => (req: FastifyRequest, reply: FastifyReply) =>
    serve(req, reply, credentials);
  app.get('/v1/verdicts/:id/stream', route('key'));
  app.get('/api/debates/:id/stream', route('user'));

  async function serve(req: FastifyRequest, reply: FastifyReply, credentials: Credentials) {
    const headers: Record<string, string> = {};
    let prepared: Awaited<ReturnType<typeof prepare>>;
    try {
      if (open.closing) throw new AppError('SERVICE_UNAVAILABLE', 'The server is shutting down');
      prepared = await prepare(core, req, credentials, headers);
      if (streamsNothing(prepared)) {
        // Nothing after Last-Event-ID and nothing more to come: 204 tells EventSource to stop reconnecting.
        // It streams nothing, so it is a request, not a stream open (EventSource's reconnect after the last
        // event lands here: it must not spend the budget of streams).
        await prepared.notStreamed();
        return reply.code(204).headers(headers).send();
      }
    } catch (err) {
      const appError = err instanceof AppError ? err : unexpectedFailure(err);
      if (errorStatus(appError.code) >= 500) req.log.error({ err }, 'debate stream failed to start');
      return sendAppError(reply.headers(headers), appError);
    }
    reply.hijack();
    const res = reply.raw;
    // Hung up while the events were being read: nothing to stream to.
    if (res.destroyed || !res.socket || res.socket.destroyed) return;
    const end = stream(context, req.log, sseWriterFor(res), headers, prepared);
    // The client hung up (or the response ended): stop following and clear the timer. A response closes
    // once (and with no argument), so a plain listener does: `once` wraps it in two objects more, kept as
    // long as the stream.
    res.on('close', end);
  }
}

/** What the open streams of the app share. */
type StreamContext = {
  core: Services;
  /** Enders of the open streams, so closing the app does not wait on clients that never hang up. */
  open: OpenStreams;
  keepAliveMs: number;
};

type Prepared = DebateStreamStart;

/**
 * Each event's message, encoded once: the streams of one debate are handed the same event objects by the
 * bus's fan-out, so a thousand streams cost one encoding of each event, not a thousand.
 */
const encodedEvents = new WeakMap<StoredEvent, Buffer>();
function encoded(event: StoredEvent): Buffer {
  let message = encodedEvents.get(event);
  if (message === undefined) {
    message = Buffer.from(sseMessage(event.seq, event.type, streamData(event.type, event.data)));
    encodedEvents.set(event, message);
  }
  return message;
}

/** Everything that can still fail with an envelope: input, caller, visibility, the stored events. */
async function prepare(
  core: Services,
  req: FastifyRequest,
  credentials: Credentials,
  headers: Record<string, string>,
) {
  // The caller first, as the procedures do; opening a stream counts against the stream budget, so a
  // client that spent its request budget can still reconnect (EventSource gives up on a 429).
  const { caller, notStreamed } = await openStream(core, req, credentials, headers, routeEndpoint(req));
  const { id } = parseStreamParameter(Params, req.params, '');
  const start = await debateStreamStart(core, caller.userId, id, lastEventId(req));
  return { ...start, notStreamed };
}

/** Streams the prepared events, then follows the bus until the debate ends, the client hangs up or the app closes. */
function stream(
  context: StreamContext,
  log: FastifyBaseLogger,
  writer: SseWriter,
  headers: Record<string, string>,
  prepared: Prepared,
): StreamEnder {
  const followed = new FollowedDebate(context, log, writer, prepared);
  context.open.add(followed.end);
  writer.open(headers);
  followed.start(prepared);
  return followed.end;
}

/**
 * One open debate stream: what it keeps while it is open (not the request, nor the events it replays once),
 * as one object whose methods its feed and keep-alive call — an idle stream is mostly what it keeps, and
 * closures kept a context and a function each.
 */
class FollowedDebate implements FeedFollower {
  readonly #context: StreamContext;
  readonly #log: FastifyBaseLogger;
  readonly #writer: SseWriter;
  readonly #id: string;
  readonly #attempt: number;
  #lastSent: number;
  #stopFollowing: (() => void) | null = null;
  #stopKeepAlive: (() => void) | null = null;
  #ended = false;

  constructor(context: StreamContext, log: FastifyBaseLogger, writer: SseWriter, prepared: Prepared) {
    this.#context = context;
    this.#log = log;
    this.#writer = writer;
    this.#id = prepared.id;
    this.#attempt = prepared.attempt;
    this.#lastSent = prepared.afterSeq;
  }

  /** Ends the stream once (a `retry:` hint first when `reconnectInMs` is given): the app's closing calls it too. */
  readonly end: StreamEnder = (reconnectInMs) => {
    if (this.#ended) return;
    this.#ended = true;
    this.#context.open.delete(this.end);
    this.#stopKeepAlive?.();
    this.#stopFollowing?.();
    if (reconnectInMs === undefined) this.#writer.close();
    else this.#writer.closeForReconnect(reconnectInMs);
  };

  /** The stored events, then, unless they finished the debate, the bus's and the keep-alive. */
  start(prepared: Prepared) {
    for (const event of prepared.stored) this.onEvent(event);
    // A finished debate's stored events are all there is (its last events are stored with its final state).
    if (this.#ended || prepared.finished) return this.end();
    const { core, keepAliveMs } = this.#context;
    // A debate deleted meanwhile (or retried as a new attempt) has nothing more to send: the stream ends, and
    // a reconnect hears why. The feed hears of that as it commits (onEnded); each keep-alive asks it too,
    // which costs a look at storage only while that news may be missed (debate-events.ts).
    this.#stopKeepAlive = everyBeat(keepAliveMs, this.#keepAlive);
    core.debateEvents
      // A feed that could not read what the bus skipped has told core's error report; the client reconnects.
      .follow(this.#id, this.#attempt, this.#lastSent, this)
      .then((stop) => {
        // The stream may have ended while the subscription was being set up (terminal replay, hang-up).
        if (this.#ended) stop();
        else this.#stopFollowing = stop;
      })
      .catch((err: unknown) => {
        this.#log.error({ err, debateId: this.#id }, 'debate stream: following the bus failed');
        this.end();
      });
  }

  /** Sends each event once and in order: the stored ones first, then the feed's. */
  onEvent(event: StoredEvent) {
    if (this.#ended || event.seq <= this.#lastSent) return;
    this.#lastSent = event.seq;
    this.#writer.sendEncoded(encoded(event));
    if (TERMINAL_EVENTS.has(event.type)) this.end();
  }

  onLost() {
    this.end();
  }

  onEnded() {
    this.end();
  }

  readonly #keepAlive = () => {
    this.#writer.comment('keep-alive');
    // At most one look per keep-alive interval for the debate: an answer is then at most that old.
    this.#context.core.debateEvents.check(this.#id, this.#attempt, this.#context.keepAliveMs).then(
      (current) => {
        if (!current) this.end();
      },
      (err: unknown) => {
        this.#log.error({ err, debateId: this.#id }, 'debate stream: reading missed events failed');
        this.end();
      },
    );
  };
}

/**
 * Last-Event-ID (sent by EventSource on reconnect) wins over ?lastEventId= (for a first connect); an empty
 * header is no id, as EventSource means it. Both are checked when both come: a malformed one is refused
 * even where the other wins.
 */
function lastEventId(req: FastifyRequest): number {
  const query = (req.query as Record<string, unknown> | undefined)?.lastEventId;
  const fromQuery = query === undefined ? 0 : parseStreamParameter(LastEventSeq, query, 'lastEventId');
  const header = req.headers['last-event-id'];
  if (typeof header === 'string' && header.trim() !== '') {
    return parseStreamParameter(LastEventSeq, header.trim(), 'Last-Event-ID');
  }
  return fromQuery;
}
