import type { Agent } from 'undici';
import { untilAborted } from '../net/deadline.ts';
import { refusalOfUrl, type SsrfPolicy, SsrfRefusedError, ssrfGuardedAgent } from '../net/ssrf-guard.ts';
import { undici } from '../net/undici.ts';
import { ExtractionError, mediaType } from './extract-text.ts';
import { processSandboxes, type SandboxPool } from './extraction-sandbox.ts';

/** Limits of POST /api/debates/fetch-url: bytes of the page, time for the whole fetch, redirects followed. */
export const PAGE_BYTES_MAX = 5 * 1024 * 1024;
export const PAGE_TIMEOUT_MS = 10_000;
export const PAGE_REDIRECTS_MAX = 5;

/**
 * Which addresses a page fetch may reach: the SSRF guard's rules without `allowHttp`, as pages are fetched
 * over http or https always (the spec's fetch-url takes either; the scheme is not what makes a target
 * safe, its address is, and that is checked on every hop).
 */
export type PagePolicy = Omit<SsrfPolicy, 'allowHttp'>;

export type PageFetchOptions = {
  policy: PagePolicy;
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
  /** Where the page is read: the process's sandbox pool unless a test gives its own. */
  sandboxes?: SandboxPool;
};

/**
 * Why a page could not be used: `code` is the detail code of the 400, `message` says what happened.
 * `unsupported`: a type that is not read; `unreadable`: its bytes could not be read as that type, or its
 * reading outgrew the sandbox's limits.
 */
export type PageFetchFailure =
  | 'refused'
  | 'unreachable'
  | 'too_big'
  | 'timeout'
  | 'too_many_redirects'
  | 'unsupported'
  | 'unreadable';

export class PageFetchError extends Error {
  override name = 'PageFetchError';
  readonly code: PageFetchFailure;
  constructor(message: string, code: PageFetchFailure) {
    super(message);
    this.code = code;
  }
}

export type FetchedPage = { url: string; contentType: string; size: number; text: string };

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * Fetches `url` (http or https) through the SSRF guard and returns its readable text. Redirects are followed
 * by hand, at most five, each hop's URL checked (scheme, IP literal) before the request and every address
 * checked by the guard's agent when connecting, so a redirect to a private address goes nowhere. The whole
 * download — every hop, the body included — has one deadline, and the body is read only up to the byte cap;
 * the reading of the text then has the sandbox's own limits (extraction-sandbox.ts).
 */
export async function fetchPage(url: string, options: PageFetchOptions): Promise<FetchedPage> {
  const { contentType, size, bytes, url: reached } = await downloadPage(url, options);
  return { url: reached, contentType, size, text: await readableText(contentType, bytes, options.sandboxes) };
}

type DownloadedPage = { url: string; contentType: string; size: number; bytes: Uint8Array };

/** The page's bytes, every hop through the guard, within the deadline and the byte cap. */
async function downloadPage(url: string, options: PageFetchOptions): Promise<DownloadedPage> {
  const maxBytes = options.maxBytes ?? PAGE_BYTES_MAX;
  const maxRedirects = options.maxRedirects ?? PAGE_REDIRECTS_MAX;
  const timeoutMs = options.timeoutMs ?? PAGE_TIMEOUT_MS;
  const policy: SsrfPolicy = { ...options.policy, allowHttp: true };
  const deadline = AbortSignal.timeout(timeoutMs);
  // The deadline reaches the connector too: a name lookup under way when it passes fails at once.
  const agent = ssrfGuardedAgent(policy, { connectTimeoutMs: timeoutMs, signal: deadline });
  try {
    return await untilAborted(downloadHops(url, policy, agent, deadline, maxBytes, maxRedirects), deadline);
  } catch (error) {
    if (error instanceof PageFetchError) throw error;
    if (deadline.aborted) throw new PageFetchError(`no complete answer within ${timeoutMs} ms`, 'timeout');
    const cause = error instanceof Error ? (error.cause ?? error) : error;
    // Never the address the name resolved to: that would let callers map names of a private network.
    if (cause instanceof SsrfRefusedError) {
      throw new PageFetchError('refused: the host resolves to an address that is not public', 'refused');
    }
    throw new PageFetchError('the page could not be reached', 'unreachable');
  } finally {
    // Not awaited, and not close(): close waits for every request under way, a connection still being
    // made included, which is what the deadline gave up on.
    agent.destroy().catch(() => {});
  }
}

/** Each hop, its URL checked before it is requested, until an answer that is not a redirect is read. */
async function downloadHops(
  url: string,
  policy: SsrfPolicy,
  agent: Agent,
  deadline: AbortSignal,
  maxBytes: number,
  maxRedirects: number,
): Promise<DownloadedPage> {
  let current = url;
  for (let hop = 0; ; hop++) {
    const refusal = refusalOfUrl(current, policy);
    if (refusal)
      throw new PageFetchError(`refused ${hop === 0 ? 'the URL' : 'a redirect'}: ${refusal}`, 'refused');
    const answer = await undici().request(current, {
      method: 'GET',
      dispatcher: agent,
      signal: deadline,
      headers: {
        accept: 'text/html, application/xhtml+xml, application/pdf, text/plain;q=0.8',
        'user-agent': 'VerdictBot/1.0',
      },
    });
    const location = answer.headers.location;
    if (REDIRECTS.has(answer.statusCode) && typeof location === 'string') {
      await answer.body.dump();
      if (hop >= maxRedirects) {
        throw new PageFetchError(`more than ${maxRedirects} redirects`, 'too_many_redirects');
      }
      current = new URL(location, current).toString();
      continue;
    }
    if (answer.statusCode < 200 || answer.statusCode >= 300) {
      await answer.body.dump();
      throw new PageFetchError(`the page answered ${answer.statusCode}`, 'unreachable');
    }
    const declared = Number(answer.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) {
      answer.body.destroy();
      throw new PageFetchError(`the page is larger than ${maxBytes} bytes`, 'too_big');
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of answer.body) {
      size += (chunk as Buffer).length;
      if (size > maxBytes) {
        answer.body.destroy();
        throw new PageFetchError(`the page is larger than ${maxBytes} bytes`, 'too_big');
      }
      chunks.push(chunk as Buffer);
    }
    const contentType = String(answer.headers['content-type'] ?? 'application/octet-stream');
    return { url: current, contentType, size, bytes: new Uint8Array(Buffer.concat(chunks)) };
  }
}

/** Types a page is read as: HTML through Readability, PDF through the PDF path, plain text as it is. */
const READABLE_PAGE_TYPES = new Set([
  'text/html',
  'application/xhtml+xml',
  'application/pdf',
  'text/plain',
  'text/markdown',
]);

/**
 * The page's text, read in a sandbox of the process's pool (the page is untrusted: its parsing has limits),
 * after the download and apart from its deadline. A page the sandbox could not read (its bytes, or its
 * reading outgrew the time or memory limit) is a PageFetchError with the reason; a sandbox that failed on
 * its own (a crash) and a pool with no room (SandboxesBusyError) are thrown as they are: the service's
 * fault, not the page's.
 */
async function readableText(
  contentType: string,
  bytes: Uint8Array,
  sandboxes: SandboxPool = processSandboxes,
): Promise<string> {
  const type = mediaType(contentType);
  if (!READABLE_PAGE_TYPES.has(type))
    throw new PageFetchError(`pages of type ${type} are not read`, 'unsupported');
  try {
    return await sandboxes.extract('page', type, bytes);
  } catch (error) {
    throw pageReadFailure(error);
  }
}

/** What a failed reading of a page becomes: its own reason when the page was at fault, else the error itself. */
export const pageReadFailure = (error: unknown): unknown =>
  error instanceof ExtractionError ? new PageFetchError(error.message, 'unreadable') : error;
