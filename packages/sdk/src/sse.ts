import { type Backoff, backoffDelay, sleep } from './backoff.ts';
import { VerdictError } from './errors.ts';

/** One Server-Sent Events message. */
export type SseMessage = { id: string | null; event: string; data: string };

/**
 * Splits an SSE body into messages, as the HTML standard's parser does (comments skipped, `data` joined).
 * A `retry:` takes effect when it is read, as the standard says, even in a block without data (what a
 * server that is shutting down sends last): `onRetry` hears each.
 */
export async function* parseSse(
  body: ReadableStream<Uint8Array>,
  onRetry?: (retryMs: number) => void,
): AsyncGenerator<SseMessage & { retry?: number }> {
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  let event = '';
  let id: string | null = null;
  let retry: number | undefined;
  const reader = body.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let newline = buffer.search(/\r\n|\r|\n/);
      while (newline !== -1) {
        const line = buffer.slice(0, newline);
        const width = buffer.startsWith('\r\n', newline) ? 2 : 1;
        buffer = buffer.slice(newline + width);
        newline = buffer.search(/\r\n|\r|\n/);
        if (line === '') {
          if (data.length > 0) {
            yield {
              id,
              event: event || 'message',
              data: data.join('\n'),
              ...(retry === undefined ? {} : { retry }),
            };
          }
          data = [];
          event = '';
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        let value = colon === -1 ? '' : line.slice(colon + 1);
        if (value.startsWith(' ')) value = value.slice(1);
        if (field === 'data') data.push(value);
        else if (field === 'event') event = value;
        else if (field === 'id' && !value.includes('\0')) id = value;
        else if (field === 'retry' && /^\d+$/.test(value)) {
          retry = Number(value);
          onRetry?.(retry);
        }
      }
    }
  } finally {
    reader.releaseLock();
  }
}

export type StreamOptions = {
  signal?: AbortSignal;
  /** Resume after this event id (what Last-Event-ID carries on a reconnect). */
  lastEventId?: string | null;
  /**
   * Consecutive failed connection attempts before the iterator throws (default 8: at the default back-off,
   * a server gone for about a minute and a half).
   */
  maxReconnects?: number;
  backoff?: Backoff;
};

/**
 * A reconnecting SSE stream as an async iterator: after a dropped connection it reconnects with
 * Last-Event-ID, waiting as the server asked (Retry-After, the stream's `retry:`) or backing off; it ends
 * when `isLast` says a message was the final one, or when the server answers 204 (nothing more to send).
 * A non-transient error answer (401, 404…) is thrown as a VerdictError.
 */
export async function* reconnectingSse(
  connect: (lastEventId: string | null, signal: AbortSignal) => Promise<Response>,
  isLast: (message: SseMessage) => boolean,
  options: StreamOptions = {},
): AsyncGenerator<SseMessage> {
  const controller = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, controller.signal]) : controller.signal;
  let lastEventId = options.lastEventId ?? null;
  let failures = 0;
  let serverRetryMs: number | null = null;
  const maxReconnects = options.maxReconnects ?? 8;
  try {
    for (;;) {
      let response: Response | null = null;
      let waitMs: number | null = null;
      try {
        response = await connect(lastEventId, signal);
      } catch (err) {
        if (signal.aborted) return;
        if (!(err instanceof VerdictError) || !reconnectable(err) || failures >= maxReconnects) throw err;
        waitMs = err.retryAfterMs;
      }
      if (response) {
        if (response.status === 204 || !response.body) return;
        try {
          const heardRetry = (retryMs: number) => {
            serverRetryMs = retryMs;
          };
          for await (const message of parseSse(response.body, heardRetry)) {
            if (message.id !== null) lastEventId = message.id;
            failures = 0;
            const { retry: _retry, ...plain } = message;
            yield plain;
            if (isLast(plain)) return;
          }
        } catch (err) {
          if (signal.aborted) return;
          if (failures >= maxReconnects) {
            throw new VerdictError({
              status: 0,
              code: 'CONNECTION_ERROR',
              message: 'The stream broke',
              cause: err,
            });
          }
        }
      }
      if (signal.aborted) return;
      await sleep(reconnectDelay(failures, waitMs, serverRetryMs, options.backoff), signal).catch(
        () => undefined,
      );
      if (signal.aborted) return;
      failures++;
    }
  } finally {
    // Breaking out of the loop (or an error) closes the connection still open.
    controller.abort();
  }
}

/** The least a wait grown from a `retry:` hint starts from: a hint of 0 must not make the attempts a spin. */
const MIN_HINT_BACKOFF_MS = 100;

/**
 * The wait before the next connection attempt, `failures` attempts having failed since the last message. A
 * Retry-After is obeyed as given. The stream's `retry:` hint is the first wait, as EventSource's; the waits
 * after a failed attempt grow from it as the back-off's do. A server restarting can take longer than a few
 * hints to come back (a loaded machine, a deploy), and waiting the hint each time spent every attempt the
 * iterator has within seconds.
 */
function reconnectDelay(
  failures: number,
  retryAfterMs: number | null,
  hintMs: number | null,
  backoff: Backoff = { initialDelayMs: 1000 },
): number {
  if (retryAfterMs !== null || hintMs === null) return backoffDelay(failures, retryAfterMs, backoff);
  if (failures === 0) return Math.min(hintMs, backoff.maxDelayMs ?? 30_000);
  return backoffDelay(failures, null, { ...backoff, initialDelayMs: Math.max(hintMs, MIN_HINT_BACKOFF_MS) });
}

const reconnectable = (error: VerdictError) =>
  error.status === 0 ||
  error.status === 429 ||
  error.status === 502 ||
  error.status === 503 ||
  error.status === 504;
