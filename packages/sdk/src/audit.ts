import type { Client } from 'openapi-fetch';
import type { paths } from './generated/openapi.ts';
import type * as T from './rest-types.ts';
import { type RequestOptions, send, type TransportConfig } from './transport.ts';

/** What of the client the resource calls through (the Verdict client is one). */
export type AuditHost = {
  readonly rest: Client<paths>;
  readonly transport: TransportConfig;
  call(options?: RequestOptions): { signal?: AbortSignal; fetch: (request: Request) => Promise<Response> };
};

async function data<D>(call: Promise<{ data?: D; response: Response }>): Promise<D> {
  const { data } = await call;
  return data as D;
}

/**
 * Lines of a text stream, each without its line break, the last one even without a final break. Read with
 * a reader (not `for await`, which not every browser offers on a stream), cancelled when the caller stops
 * early so the server stops writing.
 */
async function* linesOf(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let rest = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      rest += decoder.decode(value, { stream: true });
      const lines = rest.split('\n');
      rest = lines.pop() ?? '';
      yield* lines;
    }
    rest += decoder.decode();
    if (rest !== '') yield rest;
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/**
 * Audit trails: your account's, or (`workspaceId`) a workspace's you own or administer, on a plan with the
 * audit log (else a PlanRequiredError, 402).
 *
 * @example
 * for await (const entry of client.audit.list({ action: 'webhook.' })) console.log(entry.seq, entry.action);
 * const { verified, firstBroken } = await client.audit.verify();
 */
export class Audit {
  readonly #client: AuditHost;
  constructor(client: AuditHost) {
    this.#client = client;
  }

  /** One page, newest first; pass `nextCursor` back as `cursor` for the next. */
  page(query: T.AuditListQuery = {}, options?: RequestOptions): Promise<T.AuditPage> {
    return data(this.#client.rest.GET('/api/audit', { params: { query }, ...this.#client.call(options) }));
  }

  /** Every entry matching `query`, newest first, page after page. */
  async *list(query: T.AuditListQuery = {}, options?: RequestOptions): AsyncGenerator<T.AuditEntry> {
    let cursor = query.cursor;
    for (;;) {
      const page = await this.page({ ...query, ...(cursor ? { cursor } : {}) }, options);
      yield* page.entries;
      if (!page.nextCursor || page.entries.length === 0) return;
      cursor = page.nextCursor;
    }
  }

  /** Whether the trail holds: every entry in order, linked, and hashing to what it says. */
  verify(query: T.AuditVerifyQuery = {}, options?: RequestOptions): Promise<T.AuditVerification> {
    return data(
      this.#client.rest.GET('/api/audit/verify', { params: { query }, ...this.#client.call(options) }),
    );
  }

  /**
   * The export file as it streams (`format` csv or ndjson): its body for writing to a file, read as it
   * arrives rather than held whole.
   */
  async download(query: T.AuditExportQuery = {}, options: RequestOptions = {}): Promise<Response> {
    const { response } = await this.#client.rest.GET('/api/audit/export', {
      params: { query },
      parseAs: 'stream',
      ...(options.signal ? { signal: options.signal } : {}),
      fetch: (request: Request) => send(this.#client.transport, request, { ...options, stream: true }),
    });
    return response;
  }

  /** Every entry matching the filters, oldest first, read from the NDJSON export as it streams. */
  async *export(
    query: Omit<T.AuditExportQuery, 'format'> = {},
    options?: RequestOptions,
  ): AsyncGenerator<T.AuditEntry> {
    const response = await this.download({ ...query, format: 'ndjson' }, options);
    if (!response.body) return;
    for await (const line of linesOf(response.body)) {
      if (line !== '') yield JSON.parse(line) as T.AuditEntry;
    }
  }
}
