import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import { propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { type Kysely, sql } from 'kysely';
import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import { SQL_STATE, sqlStateOf } from '../db/sql-state.ts';
import { tracingOn } from '../observability/tracing.ts';
import type { Clock } from '../shared/clock.ts';
import { type AttemptResult, nextStep } from './delivery-policy.ts';
import type { OutgoingDelivery, WebhookSender } from './sender.ts';
import type { WebhookTables } from './tables.ts';

/** A delivery a worker holds: what to send, which attempt it is, and the claim that may record it. */
export type ClaimedDelivery = OutgoingDelivery & { attempt: number; claim: string; event: string };

/**
 * The deliveries due at `now` (alias `due`): waiting or with a claim that ran out. A deactivated webhook is
 * paused: what was queued for it waits (and goes out if it is turned on again); only what its owner asks
 * for explicitly (a test ping, a redelivery) is still sent.
 */
const dueDeliveries = (k: Kysely<WebhookTables>, now: number) =>
  k
    .selectFrom('webhook_deliveries as due')
    .innerJoin('webhooks as owner', 'owner.id', 'due.webhook_id')
    .where('due.status', 'in', ['pending', 'delivering'])
    .where('due.due_at', '<=', new Date(now).toISOString())
    .where((w) =>
      w.or([
        w('owner.active', '=', true),
        w('due.event', '=', 'ping'),
        w('due.redelivery_of', 'is not', null),
      ]),
    );

/** Whether any delivery is due now: a read without locks, for idle senders to learn there is work. */
export async function anyDeliveryDue(db: Database, clock: Clock): Promise<boolean> {
  const row = await dueDeliveries(query<WebhookTables>(db.em()), clock.now())
    .select('due.id')
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Claims the delivery due first (`skip locked`: nodes and lanes claiming together take different ones) for
 * `claimMs`, in one statement. A delivery whose claim ran out (its node died mid-send) is due again, with the
 * same id and body.
 */
export async function claimDueDelivery(
  db: Database,
  clock: Clock,
  claimMs: number,
): Promise<ClaimedDelivery | null> {
  const k = query<WebhookTables>(db.em());
  const now = clock.now();
  const claim = randomUUID();
  const row = await k
    .updateTable('webhook_deliveries as d')
    .from('webhooks as w')
    .set({ status: 'delivering', claim, due_at: new Date(now + claimMs) })
    .where('w.id', '=', (eb) => eb.ref('d.webhook_id'))
    .where('d.id', '=', () =>
      dueDeliveries(k, now).select('due.id').orderBy('due.due_at').limit(1).forUpdate('due').skipLocked(),
    )
    .returning(['d.id', 'd.body', 'd.attempts', 'd.event', 'w.url', 'w.secret'])
    .executeTakeFirst();
  if (!row) return null;
  return {
    deliveryId: row.id,
    url: row.url,
    secret: row.secret,
    body: row.body,
    attempt: row.attempts + 1,
    claim,
    event: row.event,
  };
}

/**
 * Records an attempt and what follows (delivery-policy.ts#nextStep), if the claim still holds: a worker whose
 * claim ran out and was taken over records nothing. The delivery's new state and the attempt are one
 * statement. A 410 also deactivates the webhook and gives up its other waiting deliveries, in the same
 * transaction. Returns false when the claim was lost.
 *
 * An attempt whose text the database refuses (a data exception: the sender already makes excerpts and
 * errors storable, stored-text.ts, so this is the net under it) is recorded without that text. Were it not
 * recorded at all, the delivery would stay `delivering` until its claim ran out and then be sent again with
 * the same attempt number — and fail to record again, forever.
 */
export async function recordAttempt(
  db: Database,
  clock: Clock,
  claimed: ClaimedDelivery,
  result: AttemptResult,
): Promise<boolean> {
  try {
    return await recordAttemptAsIs(db, clock, claimed, result);
  } catch (error) {
    const state = sqlStateOf(error, (found) => found.startsWith(SQL_STATE.dataExceptionClass));
    if (state === null) throw error;
    const bare = {
      ...result,
      responseExcerpt: null,
      error: `the answer could not be recorded (SQLSTATE ${state})`,
    };
    return recordAttemptAsIs(db, clock, claimed, bare);
  }
}

async function recordAttemptAsIs(
  db: Database,
  clock: Clock,
  claimed: ClaimedDelivery,
  result: AttemptResult,
): Promise<boolean> {
  const now = clock.now();
  const step = nextStep(claimed.attempt, result, now);
  const record = async (em: EntityManager) =>
    query<WebhookTables>(em)
      .with('recorded', (db) =>
        db
          .updateTable('webhook_deliveries')
          .set({
            status: step.status,
            attempts: claimed.attempt,
            due_at: step.status === 'pending' ? step.dueAt : null,
            claim: null,
            last_status_code: result.statusCode,
          })
          .where('id', '=', claimed.deliveryId)
          .where('claim', '=', claimed.claim)
          .returning(['id', 'webhook_id']),
      )
      .insertInto('webhook_delivery_attempts')
      .columns([
        'delivery_id',
        'attempt',
        'started_at',
        'status_code',
        'duration_ms',
        'response_excerpt',
        'error',
      ])
      .expression((eb) =>
        eb
          .selectFrom('recorded')
          .select([
            'recorded.id',
            sql<number>`${claimed.attempt}::int`.as('attempt'),
            sql<string>`${result.startedAt.toISOString()}::timestamptz`.as('started_at'),
            sql<number | null>`${result.statusCode}::int`.as('status_code'),
            sql<number>`${result.durationMs}::int`.as('duration_ms'),
            sql<string | null>`${result.responseExcerpt}::varchar`.as('response_excerpt'),
            sql<string | null>`${result.error}::varchar`.as('error'),
          ]),
      )
      .returning(sql<string>`(select webhook_id from recorded)`.as('webhook_id'))
      .executeTakeFirst();
  if (!(step.status === 'failed' && step.deactivateWebhook)) return (await record(db.em())) !== undefined;
  return db.em().transactional(async (em) => {
    const recorded = await record(em);
    if (!recorded) return false;
    const k = query<WebhookTables>(em);
    await k
      .updateTable('webhooks')
      .set({ active: false, updated_at: new Date(now) })
      .where('id', '=', recorded.webhook_id)
      .execute();
    await k
      .updateTable('webhook_deliveries')
      .set({ status: 'failed', due_at: null })
      .where('webhook_id', '=', recorded.webhook_id)
      .where('status', '=', 'pending')
      .execute();
    return true;
  });
}

/**
 * How an attempt ended: the receiver took it, it failed and will be retried, or it failed for good (out of
 * retries, or 410 Gone).
 */
export type AttemptOutcome = 'delivered' | 'retrying' | 'failed';

/**
 * Claims the next due delivery, sends it (outside any transaction: a slow receiver holds no lock or
 * connection) and records the attempt. Returns how the attempt ended, or null when nothing was due.
 */
export async function deliverNext(
  db: Database,
  clock: Clock,
  sender: WebhookSender,
  claimMs: number,
): Promise<AttemptOutcome | null> {
  const claimed = await claimDueDelivery(db, clock, claimMs);
  if (!claimed) return null;
  // The trace of the work that queued the event (a debate's finish): read only when spans are recorded.
  const traceparent = tracingOn() ? await traceParentOf(db, claimed.deliveryId) : null;
  const parent = traceparent ? propagation.extract(ROOT_CONTEXT, { traceparent }) : ROOT_CONTEXT;
  return tracer().startActiveSpan(
    'webhook.deliver',
    {
      kind: SpanKind.CLIENT,
      // Not the URL: its query may hold the receiver's token.
      attributes: {
        'webhook.event': claimed.event,
        'webhook.delivery.id': claimed.deliveryId,
        'webhook.delivery.attempt': claimed.attempt,
      },
    },
    parent,
    async (span) => {
      try {
        const result = await sender.send(claimed);
        if (result.statusCode !== null) span.setAttribute('http.response.status_code', result.statusCode);
        if (result.error !== null || (result.statusCode ?? 0) >= 300) {
          span.setStatus({
            code: SpanStatusCode.ERROR,
            message: result.error ?? `status ${result.statusCode}`,
          });
        }
        await recordAttempt(db, clock, claimed, result);
        const step = nextStep(claimed.attempt, result, clock.now()).status;
        return step === 'succeeded' ? 'delivered' : step === 'pending' ? 'retrying' : 'failed';
      } finally {
        span.end();
      }
    },
  );
}

/** Each delivery attempt is a span of its own (a no-op while tracing is off). */
const tracer = () => trace.getTracer('verdict-webhooks');

/** The traceparent stored with the outbox row a delivery was fanned out of, if any. */
async function traceParentOf(db: Database, deliveryId: string): Promise<string | null> {
  const row = await query<WebhookTables>(db.em())
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_outbox as o', 'o.id', 'd.outbox_id')
    .select('o.trace_parent')
    .where('d.id', '=', deliveryId)
    .executeTakeFirst();
  return row?.trace_parent ?? null;
}
