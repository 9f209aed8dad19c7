import createClient, { type Client } from 'openapi-fetch';
import { Audit } from './audit.ts';
import { type Backoff, sleep } from './backoff.ts';
import { PlanRequiredError, VerdictError } from './errors.ts';
import {
  type DebateStreamEvent,
  debateEvents,
  type NotificationStreamEvent,
  TERMINAL_DEBATE_EVENTS,
} from './events.ts';
import type { paths } from './generated/openapi.ts';
import { paginate } from './paginate.ts';
import type * as T from './rest-types.ts';
import { reconnectingSse, type StreamOptions } from './sse.ts';
import { Sso } from './sso.ts';
import {
  type RequestOptions,
  type RetryWait,
  send,
  sleepBeforeRetry,
  type TransportConfig,
} from './transport.ts';

export type VerdictClientOptions = {
  /** The API's base URL, e.g. `http://localhost:3000`; default VERDICT_URL where an environment exists. */
  baseUrl?: string;
  /** An API key (`vrd_…`), sent as `Authorization: Bearer`; default VERDICT_API_KEY. */
  apiKey?: string;
  /** Time allowed for each attempt of a call, in ms (default 60 s). */
  timeoutMs?: number;
  /**
   * Retries of a failed call (default 2): on a rate limit that will lift, an overloaded or unreachable
   * server; a call the rate limit refused always, others only where repeating is safe (GET, a create).
   */
  maxRetries?: number;
  backoff?: Backoff;
  /**
   * Sits out the pause before each retry (default: waits `delayMs`). Replace it to show the wait, or to
   * give up: a rejection ends the call with that reason.
   *
   * @example
   * new Verdict({
   *   waitBeforeRetry: async ({ delayMs, error }) => {
   *     console.error(`${error.code}: retrying in ${Math.ceil(delayMs / 1000)} s`);
   *     await new Promise((resolve) => setTimeout(resolve, delayMs));
   *   },
   * });
   */
  waitBeforeRetry?: (wait: RetryWait, signal?: AbortSignal) => Promise<void>;
  /** A fetch implementation (default the global one). */
  fetch?: typeof globalThis.fetch;
  /** Headers sent with every call. */
  headers?: Record<string, string>;
};

/** The typed REST client (openapi-fetch over the API document); an error answer throws a VerdictError. */
export type RestClient = Client<paths>;

const env = (name: string): string | undefined =>
  (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name];

/**
 * The Verdict API client: resources as namespaces (`client.debates.create`), typed by the API document,
 * errors as VerdictError, retries with back-off where safe, Idempotency-Key on creates, pagination and
 * streams as async iterators. `client.rest` reaches every route of the document, typed.
 */
export class Verdict {
  readonly baseUrl: string;
  readonly rest: RestClient;
  readonly debates: Debates;
  readonly verdicts: Verdicts;
  readonly outcomes: Outcomes;
  readonly scores: Scores;
  readonly keys: Keys;
  readonly sharing: Sharing;
  readonly notifications: Notifications;
  readonly search: Search;
  readonly account: Account;
  readonly audit: Audit;
  readonly sso: Sso;
  /** @internal */
  readonly transport: TransportConfig;
  /** Headers every call carries (the key among them). */
  private readonly headers: Record<string, string>;

  constructor(options: VerdictClientOptions = {}) {
    const baseUrl = options.baseUrl ?? env('VERDICT_URL');
    if (!baseUrl) throw new Error('Verdict: no baseUrl given (option baseUrl or VERDICT_URL)');
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    const apiKey = options.apiKey ?? env('VERDICT_API_KEY');
    this.transport = {
      fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
      timeoutMs: options.timeoutMs ?? 60_000,
      maxRetries: options.maxRetries ?? 2,
      backoff: options.backoff ?? {},
      waitBeforeRetry: options.waitBeforeRetry ?? sleepBeforeRetry,
    };
    const headers: Record<string, string> = { ...options.headers };
    if (apiKey) headers.authorization = `Bearer ${apiKey}`;
    this.headers = headers;
    this.rest = createClient<paths>({
      baseUrl: this.baseUrl,
      headers,
      fetch: (request) => send(this.transport, request),
    });
    this.debates = new Debates(this);
    this.verdicts = new Verdicts(this);
    this.outcomes = new Outcomes(this);
    this.scores = new Scores(this);
    this.keys = new Keys(this);
    this.sharing = new Sharing(this);
    this.notifications = new Notifications(this);
    this.search = new Search(this);
    this.account = new Account(this);
    this.audit = new Audit(this);
    this.sso = new Sso(this);
  }

  /** @internal Per-call options as openapi-fetch options. */
  call(options: RequestOptions = {}) {
    return {
      ...(options.signal ? { signal: options.signal } : {}),
      fetch: (request: Request) => send(this.transport, request, options),
    };
  }

  /** @internal Opens an SSE route (`path` absolute, from the base URL) once. */
  openStream(path: string, lastEventId: string | null, signal: AbortSignal) {
    const request = new Request(`${this.baseUrl}${path}`, {
      headers: {
        ...this.headers,
        accept: 'text/event-stream',
        ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
      },
    });
    // Reconnecting is the stream's job: one attempt per connection.
    return send(this.transport, request, { signal, stream: true, maxRetries: 0 });
  }
}

/** The data of a success; errors were thrown by the transport, so an absent body means none was sent. */
async function data<D>(call: Promise<{ data?: D; response: Response }>): Promise<D> {
  const { data } = await call;
  return data as D;
}

abstract class Resource {
  protected readonly client: Verdict;
  constructor(client: Verdict) {
    this.client = client;
  }
  protected get rest() {
    return this.client.rest;
  }
}

export class Debates extends Resource {
  /** Starts a debate (POST /api/debates); safe to retry: it carries an Idempotency-Key. */
  create(body: T.CreateDebateInput, options?: RequestOptions): Promise<T.CreatedDebate> {
    return data(this.rest.POST('/api/debates', { body, ...this.client.call(options) }));
  }

  retrieve(id: string, options?: RequestOptions): Promise<T.Debate> {
    return data(
      this.rest.GET('/api/debates/{id}', { params: { path: { id } }, ...this.client.call(options) }),
    );
  }

  /**
   * The debate once it is completed or failed, by polling with growing pauses: for callers that do not
   * follow the stream. (A stream's `debate.completed` is sent only once every read shows it.)
   */
  async waitUntilFinished(
    id: string,
    options: RequestOptions & { maxWaitMs?: number } = {},
  ): Promise<T.Debate> {
    const deadline = Date.now() + (options.maxWaitMs ?? 10 * 60_000);
    for (let attempt = 0; ; attempt++) {
      const debate = await this.retrieve(id, options);
      if (debate.status === 'completed' || debate.status === 'failed' || Date.now() >= deadline)
        return debate;
      await sleep(Math.min(2_000, 50 * 2 ** attempt), options.signal);
    }
  }

  /** One page of your debates, newest first. */
  page(query: T.DebateListQuery = {}, options?: RequestOptions): Promise<T.DebatePage> {
    return data(this.rest.GET('/api/debates', { params: { query }, ...this.client.call(options) }));
  }

  /** All your debates matching `query`, page after page: `for await (const debate of client.debates.list())`. */
  list(query: T.DebateListQuery = {}, options?: RequestOptions): AsyncGenerator<T.Debate> {
    return paginate(
      async (page) => {
        const result = await this.page({ ...query, page }, options);
        return { items: result.debates, page: result.page, totalPages: result.totalPages };
      },
      Number(query.page ?? 1),
    );
  }

  delete(id: string, options?: RequestOptions): Promise<void> {
    return data(
      this.rest.DELETE('/api/debates/{id}', { params: { path: { id } }, ...this.client.call(options) }),
    ).then(() => undefined);
  }

  /**
   * The debate's corpus (GET /api/debates/:id/evidence): each passage (E1, E2 …) with its source, the
   * citations that name it and the claims it supports or undercuts; `evidence: 'off'` and no passages for a
   * debate that ran without the evidence engine. On a plan without the evidence engine it throws a
   * PlanRequiredError (402) naming the plan and where to choose it.
   */
  evidence(id: string, options?: RequestOptions): Promise<T.DebateEvidence> {
    return data(
      this.rest.GET('/api/debates/{id}/evidence', { params: { path: { id } }, ...this.client.call(options) }),
    );
  }

  /** pause, resume, skip or inject into a running debate. */
  command(id: string, command: T.DebateCommand, options?: RequestOptions) {
    return data(
      this.rest.POST('/api/debates/{id}/commands', {
        params: { path: { id } },
        body: command,
        ...this.client.call(options),
      }),
    );
  }

  /**
   * The debate's events as they happen, replayed from the start (or after `lastEventId`): an async iterator
   * that reconnects after a dropped connection with Last-Event-ID and ends after `debate.completed` or
   * `debate.failed` (or at once when the debate had finished and nothing is left to send).
   */
  stream(id: string, options: StreamOptions = {}): AsyncGenerator<DebateStreamEvent> {
    const path = `/api/debates/${encodeURIComponent(id)}/stream`;
    return debateEvents(
      reconnectingSse(
        (lastEventId, signal) => this.client.openStream(path, lastEventId, signal),
        (message) => TERMINAL_DEBATE_EVENTS.has(message.event),
        options,
      ),
    );
  }
}

export class Verdicts extends Resource {
  /** POST /v1/verdicts (the public API's create); carries an Idempotency-Key. */
  create(body: T.CreateVerdictInput, options?: RequestOptions) {
    return data(this.rest.POST('/v1/verdicts', { body, ...this.client.call(options) }));
  }

  /** The debate and, once completed, the full verdict (decision matrix, evidence, next steps). */
  retrieve(id: string, options?: RequestOptions): Promise<T.VerdictDetail> {
    return data(
      this.rest.GET('/v1/verdicts/{id}', { params: { path: { id } }, ...this.client.call(options) }),
    );
  }

  /**
   * The verdict's evidence (GET /v1/verdicts/:id/evidence), the same read as `debates.evidence`: the passages
   * its key evidence quotes and every other one of the debate's corpus. Throws a PlanRequiredError (402) on a
   * plan without the evidence engine.
   *
   * @example
   * const { evidence, passages } = await client.verdicts.evidence(id);
   * for (const passage of passages) console.log(passage.evidenceId, passage.source.title, passage.supports);
   */
  evidence(id: string, options?: RequestOptions): Promise<T.DebateEvidence> {
    return data(
      this.rest.GET('/v1/verdicts/{id}/evidence', { params: { path: { id } }, ...this.client.call(options) }),
    );
  }

  page(query: T.VerdictListQuery = {}, options?: RequestOptions) {
    return data(this.rest.GET('/v1/verdicts', { params: { query }, ...this.client.call(options) }));
  }

  list(query: T.VerdictListQuery = {}, options?: RequestOptions): AsyncGenerator<T.Debate> {
    return paginate(
      async (page) => {
        const result = await this.page({ ...query, page }, options);
        return { items: result.debates, page: result.page, totalPages: result.totalPages };
      },
      Number(query.page ?? 1),
    );
  }

  /** The same stream as `debates.stream`, over /v1/verdicts/:id/stream. */
  stream(id: string, options: StreamOptions = {}): AsyncGenerator<DebateStreamEvent> {
    const path = `/v1/verdicts/${encodeURIComponent(id)}/stream`;
    return debateEvents(
      reconnectingSse(
        (lastEventId, signal) => this.client.openStream(path, lastEventId, signal),
        (message) => TERMINAL_DEBATE_EVENTS.has(message.event),
        options,
      ),
    );
  }
}

export class Outcomes extends Resource {
  /** Says what became of a decision; the score follows within seconds. */
  record(debateId: string, body: T.RecordOutcomeInput, options?: RequestOptions): Promise<T.OutcomeRecord> {
    return data(
      this.rest.POST('/api/debates/{id}/outcome', {
        params: { path: { id: debateId } },
        body,
        ...this.client.call(options),
      }),
    );
  }

  retrieve(debateId: string, options?: RequestOptions): Promise<T.OutcomeRecord> {
    return data(
      this.rest.GET('/api/debates/{id}/outcome', {
        params: { path: { id: debateId } },
        ...this.client.call(options),
      }),
    );
  }
}

export class Scores extends Resource {
  me(options?: RequestOptions): Promise<T.DecisionScore> {
    return data(this.rest.GET('/api/scores/me', { ...this.client.call(options) }));
  }
}

export class Keys extends Resource {
  /** Creates a key; its full value is in the answer only. */
  create(body: T.CreateKeyInput, options?: RequestOptions): Promise<T.CreatedApiKey> {
    return data(this.rest.POST('/api/keys', { body, ...this.client.call(options) }));
  }

  list(options?: RequestOptions) {
    return data(this.rest.GET('/api/keys', { ...this.client.call(options) }));
  }

  revoke(id: string, options?: RequestOptions): Promise<void> {
    return data(
      this.rest.DELETE('/api/keys/{id}', { params: { path: { id } }, ...this.client.call(options) }),
    ).then(() => undefined);
  }
}

export class Sharing extends Resource {
  /** Creates (or rotates) the debate's share link. */
  share(debateId: string, options?: RequestOptions): Promise<T.ShareLink> {
    return data(
      this.rest.POST('/api/share/{debateId}', {
        params: { path: { debateId } },
        ...this.client.call(options),
      }),
    );
  }
}

export class Search extends Resource {
  /** Your debates by keyword and full text. */
  debates(query: T.SearchQuery, options?: RequestOptions): Promise<T.SearchResults> {
    return data(this.rest.GET('/api/search', { params: { query }, ...this.client.call(options) }));
  }

  /** Your completed debates closest in meaning to a text. */
  similar(query: T.SimilarQuery, options?: RequestOptions): Promise<T.SimilarDebates> {
    return data(this.rest.GET('/api/similar', { params: { query }, ...this.client.call(options) }));
  }
}

export class Account extends Resource {
  me(options?: RequestOptions): Promise<T.Profile> {
    return data(this.rest.GET('/v1/me', { ...this.client.call(options) }));
  }

  /** Requests made with the calling key this month. */
  usage(options?: RequestOptions): Promise<T.Usage> {
    return data(this.rest.GET('/v1/usage', { ...this.client.call(options) }));
  }
}

export class Notifications extends Resource {
  /**
   * New notifications as they are created (nothing is replayed), reconnecting after a dropped connection;
   * ends only when `signal` aborts or the loop breaks.
   */
  stream(options: Omit<StreamOptions, 'lastEventId'> = {}): AsyncGenerator<NotificationStreamEvent> {
    const messages = reconnectingSse(
      (lastEventId, signal) => this.client.openStream('/api/notifications/stream', lastEventId, signal),
      () => false,
      options,
    );
    return (async function* () {
      for await (const message of messages) {
        if (message.event === 'connected') yield { type: 'connected', data: JSON.parse(message.data) };
        else if (message.event === 'notification') {
          yield { type: 'notification', id: message.id, data: JSON.parse(message.data) };
        }
      }
    })();
  }
}

export { PlanRequiredError, VerdictError };
