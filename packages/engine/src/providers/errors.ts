import { LlmCallError, type LlmFailureKind } from './port.ts';

/**
 * Turns whatever an SDK threw into one LlmCallError, once, at the adapter boundary. Works on the shape of
 * the error (status, name, cause code) so it covers the Anthropic, OpenAI and Google SDKs alike:
 *
 * - the caller's signal is aborted, or the error is an abort → aborted
 * - HTTP 429 → rate_limited; 408 → timeout; other 4xx → client; 5xx → server
 * - a connection that was reset or cut mid-answer → server (the provider dropped us)
 * - a connection that could not be made, or timed out → timeout
 * - anything else (a malformed stream, an SDK bug) → server, so the retry policy gets one more go
 *
 * The message never carries a key: every secret passed in is scrubbed from the SDK's text, and so is
 * anything shaped like a provider key. The SDK error is not attached as `cause` for the same reason
 * (its fields can hold request details); its name, status and code are in the message instead.
 */
export function toLlmCallError(
  error: unknown,
  context: { provider: string; signal: AbortSignal; secrets: readonly string[] },
): LlmCallError {
  if (error instanceof LlmCallError) return error;
  const { provider, signal, secrets } = context;
  const name = nameOf(error);
  const status = statusOf(error);
  const code = causeCode(error);
  // The SDKs start their messages with the status again ("429 {...}"); keep it once.
  const detail = scrub(messageOf(error), secrets).replace(/^\d{3}\s+/, '');
  const describe = (what: string) =>
    `${provider}: ${what}${detail ? `: ${truncate(detail, 300)}` : ''}${code ? ` (${code})` : ''}`;

  let kind: LlmFailureKind;
  if (signal.aborted || isAbort(error)) kind = 'aborted';
  else if (status !== undefined) {
    kind =
      status === 429
        ? 'rate_limited'
        : status === 408
          ? 'timeout'
          : status >= 500
            ? 'server'
            : status >= 400
              ? 'client'
              : 'server';
  } else if (isTimeout(name, code)) kind = 'timeout';
  else if (isReset(code, detail)) kind = 'server';
  else if (isConnection(name, code, detail)) kind = 'timeout';
  else kind = 'server';

  const what =
    kind === 'aborted'
      ? 'call aborted'
      : status !== undefined
        ? `HTTP ${status}`
        : kind === 'timeout'
          ? `connection failed or timed out (${name})`
          : `call failed (${name})`;
  return new LlmCallError(kind, describe(what), status === undefined ? {} : { status });
}

/** Replaces every given secret, and anything that looks like a provider key, with [redacted]. */
export function scrub(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= 4) out = out.split(secret).join('[redacted]');
  }
  return out.replace(KEY_SHAPES, '[redacted]');
}

/** sk-… (OpenAI, Anthropic, OpenRouter), AIza… (Google), vrd_… (ours), long bearer-looking tokens. */
const KEY_SHAPES =
  /\b(?:sk-[A-Za-z0-9_*-]{6,}|sk_[A-Za-z0-9_*-]{6,}|AIza[A-Za-z0-9_-]{10,}|vrd_[A-Za-z0-9_-]{6,})/g;

/** The class name when it says more than "Error" (the SDKs leave `name` as "Error" on some classes). */
function nameOf(error: unknown): string {
  if (!(error instanceof Error)) return typeof error;
  const className = error.constructor.name;
  return className && className !== 'Error' ? className : error.name;
}

function statusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const status = (error as { status?: unknown }).status;
  return typeof status === 'number' && status >= 100 && status < 600 ? status : undefined;
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : '';
}

/** The first `code` found along the cause chain (undici puts ECONNRESET and friends there). */
function causeCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Z][A-Z0-9_]+$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function isAbort(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return error.name === 'AbortError' || nameOf(error) === 'APIUserAbortError';
}

function isTimeout(name: string, code: string | undefined): boolean {
  return (
    /timeout/i.test(name) ||
    code === 'ETIMEDOUT' ||
    code === 'UND_ERR_CONNECT_TIMEOUT' ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT'
  );
}

function isReset(code: string | undefined, message: string): boolean {
  return (
    code === 'ECONNRESET' ||
    code === 'EPIPE' ||
    code === 'UND_ERR_SOCKET' ||
    /\bterminated\b|socket hang up|other side closed/i.test(message)
  );
}

function isConnection(name: string, code: string | undefined, message: string): boolean {
  return (
    /connection/i.test(name) ||
    code === 'ECONNREFUSED' ||
    code === 'ENOTFOUND' ||
    code === 'EAI_AGAIN' ||
    code === 'EHOSTUNREACH' ||
    code === 'ENETUNREACH' ||
    /fetch failed/i.test(message)
  );
}

const truncate = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
