import { startWebhookReceiver } from '@verdict/core/testing';
import { openSseFleet } from './debates-sse.ts';
import { now } from './scale-debates.ts';

/**
 * The soak's unit of load (bench/suites/soak.ts), one "mix operation" as a user's client would do it through
 * the API: create a debate, read it, list the account's debates, follow its SSE stream to the end (every
 * `streamEvery`-th), wait for its debate.completed webhook at a local receiver, record an outcome (which
 * the service reports as an outcome.recorded webhook). Every request is timed per route and every
 * unexpected answer is an error; the receiver keeps, per debate, what was delivered, so the deliveries can
 * be checked once the load stopped.
 */

export const ROUTES = ['create', 'read', 'list', 'stream_first_event', 'outcome', 'webhook'] as const;
export type Route = (typeof ROUTES)[number];
/** `at`: epoch ms the request started (for a webhook, the event's own time); `ms`: its latency. */
export type Sample = { route: Route; at: number; ms: number };
export type MixError = { at: number; what: string };

/** What one phase's operations did; a fresh one per phase keeps the capacity probe out of the soak. */
export type Recorder = {
  /** Part of every question, so that two phases never ask the same one. */
  name: string;
  samples: Sample[];
  errors: MixError[];
  /** Debates created, and those whose outcome was recorded (each owes one webhook delivery). */
  debates: Set<string>;
  outcomes: Set<string>;
};

export const newRecorder = (name: string): Recorder => ({
  name,
  samples: [],
  errors: [],
  debates: new Set(),
  outcomes: new Set(),
});

/** The debate every operation creates; the engine runs it on the simulated model. */
export type DebateShape = { mode: 'fast'; agentCount: number; maxRounds: number };

/** One event's deliveries to the receiver: how many came, and the first one's lag from the event's time. */
type Delivered = { count: number; eventAt: number; lagMs: number; status?: string };

/** How long an operation waits for its debate's end, a stream for its last event, a request for its answer. */
const FINISH_TIMEOUT_MS = 60_000;
const REQUEST_TIMEOUT_MS = 30_000;

export type Mix = {
  operation: (recorder: Recorder, n: number) => Promise<boolean>;
  /**
   * Once the load stopped: waits up to `timeoutMs` for deliveries still due, then records as errors every
   * debate without exactly one completion delivery and every outcome without exactly one outcome.recorded,
   * and adds the completion deliveries' lags to `recorder` as `webhook` samples.
   */
  settleDeliveries: (recorder: Recorder, timeoutMs: number) => Promise<void>;
  close: () => Promise<void>;
};

/**
 * Starts the receiver (127.0.0.2, which WEBHOOK_ALLOW_PRIVATE lets the service reach) and registers a
 * webhook for the account of each of `keys` on debate.completed, debate.failed and outcome.recorded.
 * Operation n acts as the account of keys[n % keys.length].
 */
export async function startMix(
  api: { baseUrl: string; keys: string[] },
  shape: DebateShape,
  streamEvery: number,
  tag: string,
): Promise<Mix> {
  const completions = new Map<string, Delivered>();
  const outcomes = new Map<string, Delivered>();
  const waiting = new Map<string, (status: string) => void>();
  const receiver = await startWebhookReceiver();
  receiver.reply((delivery) => {
    const receivedAt = now();
    // The receiver's own log of every request would grow for the whole soak; the maps below keep the rest.
    receiver.received.length = 0;
    const body = JSON.parse(delivery.body) as {
      event: string;
      timestamp: string;
      data: { debateId: string; status?: string };
    };
    // `timestamp` is the outbox row's created_at: the start of the transaction that stored the debate's end
    // or the outcome (PostgreSQL's clock, the machine's, ms resolution).
    const eventAt = Date.parse(body.timestamp);
    const byDebate = body.event === 'outcome.recorded' ? outcomes : completions;
    const known = byDebate.get(body.data.debateId);
    if (known) known.count++;
    else {
      byDebate.set(body.data.debateId, {
        count: 1,
        eventAt,
        lagMs: receivedAt - eventAt,
        ...(body.data.status ? { status: body.data.status } : {}),
      });
    }
    if (body.event !== 'outcome.recorded') waiting.get(body.data.debateId)?.(body.data.status ?? body.event);
    return { status: 200, body: 'ok' };
  });

  const headersOf = (key: string) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });
  for (const key of api.keys) {
    const hook = await fetch(`${api.baseUrl}/api/webhooks`, {
      method: 'POST',
      headers: headersOf(key),
      body: JSON.stringify({
        url: `${receiver.url}/hook`,
        events: ['debate.completed', 'debate.failed', 'outcome.recorded'],
      }),
    });
    if (hook.status !== 201) {
      await receiver.close();
      throw new Error(`POST /api/webhooks answered ${hook.status}: ${await hook.text()}`);
    }
  }

  /** The request's parsed answer, or undefined after recording the error (any non-2xx or failure). */
  const call = async (
    rec: Recorder,
    key: string,
    route: Route,
    method: string,
    path: string,
    body?: object,
  ) => {
    const at = now();
    try {
      const res = await fetch(`${api.baseUrl}${path}`, {
        method,
        headers: headersOf(key),
        ...(body ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const text = await res.text();
      const ms = now() - at;
      if (!res.ok) {
        rec.errors.push({
          at,
          what: `${route}: ${method} ${path} answered ${res.status} ${text.slice(0, 200)}`,
        });
        return undefined;
      }
      rec.samples.push({ route, at, ms });
      return (text ? JSON.parse(text) : null) as unknown;
    } catch (err) {
      rec.errors.push({ at, what: `${route}: ${method} ${path} failed: ${(err as Error).message}` });
      return undefined;
    }
  };

  /** The stream to its end: every event in order from seq 1, the last debate.completed, the server closing it. */
  const follow = async (rec: Recorder, key: string, path: string): Promise<boolean> => {
    const at = now();
    const fleet = await openSseFleet(`${api.baseUrl}${path}`, { authorization: `Bearer ${key}` }, 1);
    if (fleet.connected !== 1) {
      fleet.close();
      rec.errors.push({ at, what: `stream: ${path} did not open: ${fleet.failures[0]}` });
      return false;
    }
    const [outcome] = await fleet.finished(FINISH_TIMEOUT_MS);
    const events = outcome?.events ?? [];
    const inOrder = events.every((e, i) => e.id === i + 1);
    if (!outcome?.ended || outcome.error || !inOrder || events.at(-1)?.type !== 'debate.completed') {
      rec.errors.push({
        at,
        what:
          `stream: ${path}: ${events.length} events (ids ${events.map((e) => e.id).join(',')}), ended ` +
          `${outcome?.ended}, last ${events.at(-1)?.type}, error ${outcome?.error}`,
      });
      return false;
    }
    rec.samples.push({ route: 'stream_first_event', at, ms: (events[0]?.receivedAt ?? at) - at });
    return true;
  };

  /** The debate's final status from its completion webhook, or null after FINISH_TIMEOUT_MS. */
  const finished = (debateId: string) => {
    const known = completions.get(debateId);
    if (known) return Promise.resolve(known.status ?? null);
    return new Promise<string | null>((resolve) => {
      const timer = setTimeout(() => {
        waiting.delete(debateId);
        resolve(null);
      }, FINISH_TIMEOUT_MS);
      waiting.set(debateId, (status) => {
        clearTimeout(timer);
        waiting.delete(debateId);
        resolve(status);
      });
    });
  };

  const steps = async (rec: Recorder, n: number): Promise<boolean> => {
    const key = api.keys[n % api.keys.length] ?? '';
    const created = (await call(rec, key, 'create', 'POST', '/api/debates', {
      question: `Should team ${tag}-${rec.name}-${n} move its nightly batch jobs to the new region this quarter?`,
      ...shape,
      skipCache: true,
    })) as { debateId: string; streamUrl: string } | undefined;
    if (!created) return false;
    const id = created.debateId;
    rec.debates.add(id);
    // streamUrl is absolute on PUBLIC_BASE_URL; the same path on the port the API listens on.
    const streamed =
      n % streamEvery === 0
        ? follow(rec, key, new URL(created.streamUrl, api.baseUrl).pathname)
        : Promise.resolve(true);
    const read = await call(rec, key, 'read', 'GET', `/api/debates/${id}`);
    const list = await call(rec, key, 'list', 'GET', '/api/debates?limit=20');
    const status = await finished(id);
    const streamOk = await streamed;
    if (status !== 'completed') {
      // Not completed, or completed without its webhook: the debate's own status tells which.
      const debate = (await call(rec, key, 'read', 'GET', `/api/debates/${id}`)) as
        | { status?: string }
        | undefined;
      rec.errors.push({
        at: now(),
        what:
          status === null
            ? `debate ${id}: no completion webhook within ${FINISH_TIMEOUT_MS} ms (its status: ${debate?.status})`
            : `debate ${id} ended ${status}`,
      });
      return false;
    }
    const recorded = await call(rec, key, 'outcome', 'POST', `/api/debates/${id}/outcome`, {
      outcomeStatus: 'correct',
    });
    if (recorded === undefined) return false;
    rec.outcomes.add(id);
    return read !== undefined && list !== undefined && streamOk;
  };

  /** Never rejects: anything thrown is an error of the operation. */
  const operation = (rec: Recorder, n: number) =>
    steps(rec, n).catch((err: unknown) => {
      rec.errors.push({
        at: now(),
        what: `operation ${n}: ${err instanceof Error ? err.message : String(err)}`,
      });
      return false;
    });

  const missing = (rec: Recorder) => [
    ...[...rec.debates]
      .filter((id) => completions.get(id)?.count !== 1)
      .map((id) => ['debate.completed', id] as const),
    ...[...rec.outcomes]
      .filter((id) => outcomes.get(id)?.count !== 1)
      .map((id) => ['outcome.recorded', id] as const),
  ];

  const settleDeliveries = async (rec: Recorder, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    while (missing(rec).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    for (const [event, id] of missing(rec)) {
      const count = (event === 'outcome.recorded' ? outcomes : completions).get(id)?.count ?? 0;
      rec.errors.push({ at: now(), what: `${event} of debate ${id}: ${count} deliveries, expected 1` });
    }
    // The lag timed is the debate's end → its completion delivery; the outcomes' deliveries are counted only.
    for (const id of rec.debates) {
      const d = completions.get(id);
      if (d) rec.samples.push({ route: 'webhook', at: d.eventAt, ms: d.lagMs });
    }
  };

  return { operation, settleDeliveries, close: () => receiver.close() };
}
