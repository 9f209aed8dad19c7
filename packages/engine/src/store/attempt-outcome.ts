import {
  chargedFor,
  lockChargedAccounts,
  openPendingOutcome,
  query,
  queueDebateWebhook,
  queueEmbedding,
  refundDebate,
  refundUnspokenRounds,
} from '@verdict/core';
import { Clock, Context, Effect, Layer } from 'effect';
import { sql } from 'kysely';
import { EngineStorage } from '../services.ts';
import { bridgedTraceparent } from '../tracing/otel-tracer.ts';
import { storeSpan } from '../tracing/spans.ts';
import { coalescedWrites } from './coalesced-writes.ts';
import { callRows, type FinishWrite, finishKey, finishMany, webhookOf } from './many-debate-finishes.ts';
import { persistMany } from './many-debate-writes.ts';
import type { DebateOutcome, Lease, LogBatch } from './records.ts';
import { fence, type StoreFailure, type StoreTables, tryStorage, UNFINISHED } from './store-statements.ts';

/**
 * An attempt's end: its final state, once, with everything that goes with it in one transaction (the
 * refund, the charge it settles, its webhook, its pending outcome, the events announcing the end). Only
 * under the lease epoch this node claimed, so a second finish (a redelivered job, a node that lost its
 * lease) changes nothing; `finish` answers whether this call stored it.
 */
export class AttemptOutcome extends Context.Service<
  AttemptOutcome,
  {
    finish: (lease: Lease, outcome: DebateOutcome, last?: LogBatch) => Effect.Effect<boolean, StoreFailure>;
  }
>()('@verdict/engine/AttemptOutcome') {
  static readonly layer = Layer.effect(
    AttemptOutcome,
    Effect.gen(function* () {
      const { db } = yield* EngineStorage;
      // Ends without a refund, the common case, go out together: one statement for many debates.
      const finishes = coalescedWrites<FinishWrite>(
        async (writes) =>
          new Set((await finishMany(writes).execute(query<StoreTables>(db.em()))).rows.map((row) => row.id)),
        { keyOf: finishKey, maxInFlight: 2, maxPerStatement: 50 },
      );
      return AttemptOutcome.of({
        finish: (lease, outcome, last) =>
          Effect.gen(function* () {
            const traceParent = yield* currentTraceparent;
            const at = new Date(yield* Clock.currentTimeMillis);
            const end: FinishWrite = { lease, outcome, at, last, traceParent };
            // The events announcing the end commit with it: no stream has them before a read shows the end.
            return yield* tryStorage(() =>
              refunds(outcome) ? db.em().transactional((em) => finishIn(em, end)) : finishes(end),
            );
          }).pipe(storeSpan('finish', lease.debateId)),
      });
    }),
  );
}

/** The running span as a traceparent, for the webhooks a finish queues to continue the debate's trace. */
const currentTraceparent = Effect.map(Effect.option(Effect.currentSpan), (span) =>
  span._tag === 'Some' ? bridgedTraceparent(span.value) : undefined,
);

/** A value as a jsonb parameter: the driver would send an array as a PostgreSQL array, not as JSON. */
const jsonb = <T>(value: T) => sql<T>`${JSON.stringify(value)}::jsonb`;

/** Failures that gave the caller nothing through no fault of theirs: the provider's, or the engine's. */
const REFUNDED_FAILURES = new Set(['PROVIDER_ERROR', 'PROVIDER_TIMEOUT', 'INTERNAL_ERROR']);

/**
 * Whether the end gives credits back: a failure that was not the caller's fault, or an early stop's unspoken
 * rounds. Those take the accounts' locks and the ledger's rules in a transaction (`finishIn`); every other
 * end is one statement (many-debate-finishes.ts).
 */
const refunds = (outcome: DebateOutcome) =>
  outcome.status === 'failed' ? REFUNDED_FAILURES.has(outcome.code) : Boolean(outcome.verdict.stoppedEarly);

type Em = Parameters<typeof query>[0];

/**
 * The final state of the attempt, once, with what goes with it in the same transaction: the refund of a
 * failure that was not the caller's fault, the credits it was charged in the end (`cost.credits`), its
 * webhook, for a completed debate its pending outcome (with a score refresh) and its embedding's turn, and
 * the log's `last` batch (the events announcing the end). Only while `lease` holds and the debate is
 * unfinished, so a second finish (a redelivered job, a node that lost its lease) changes nothing. Returns
 * whether this call stored it.
 *
 * A refund locks the accounts it credits before the debate's row, in the lock order every transaction
 * touching both keeps (ARCHITECTURE.md, "Lock order"): a retry holds the owner's row while it waits for the
 * debate's, so taking them the other way round here deadlocks with it.
 */
async function finishIn(em: Em, end: FinishWrite): Promise<boolean> {
  const { lease, outcome, at } = end;
  const refunded = outcome.status === 'failed' && REFUNDED_FAILURES.has(outcome.code);
  // A debate that stopped early because its agents converged gets its unspoken rounds' share back.
  const stoppedEarly = outcome.status === 'completed' ? outcome.verdict.stoppedEarly : undefined;
  if (refunded || stoppedEarly) await lockChargedAccounts(em, lease.debateId);
  if (!(await storeFinalRow(em, end))) return false;
  if (refunded) await refundDebate(em, lease.debateId, at);
  if (stoppedEarly) {
    const rounds = { spoken: stoppedEarly.afterRound, planned: stoppedEarly.plannedRounds };
    await refundUnspokenRounds(em, lease.debateId, rounds, at);
  }
  // Independent of one another once the row is final: sent together, the transaction's connection runs them
  // back to back instead of waiting for this process between each (a busy node's event loop is slow to).
  // All of them settle before the transaction ends, failed or not: a chain still running after the first
  // failure (the credits' update after their read) would otherwise send its statement after the rollback.
  await allSettledOrFirstFailure(followUps(em, end));
  return true;
}

/** The debate's row final, under the fence; false when this node no longer holds an unfinished attempt. */
async function storeFinalRow(em: Em, { lease, outcome, at }: FinishWrite): Promise<boolean> {
  const fields =
    outcome.status === 'completed'
      ? {
          status: 'completed' as const,
          verdict: jsonb(outcome.verdict),
          agent_count: outcome.agentCount,
          round_count: outcome.roundCount,
          agents_used: jsonb(outcome.agentsUsed),
          domain: outcome.domain,
        }
      : { status: 'failed' as const, failure_code: outcome.code, failure_message: outcome.message };
  const stored = await query<StoreTables>(em)
    .updateTable('debates')
    .set({
      ...fields,
      cost: jsonb(outcome.cost),
      completed_at: at,
      lease_owner: null,
      lease_expires_at: null,
    })
    .where(fence(lease))
    .where('status', 'in', UNFINISHED)
    .returning('id')
    .executeTakeFirst();
  return stored !== undefined;
}

/** What follows a final row in its transaction, each independent of the others. */
function followUps(em: Em, { lease, outcome, last, traceParent }: FinishWrite): unknown[] {
  const k = query<StoreTables>(em);
  const completed = outcome.status === 'completed' ? outcome : null;
  return [
    completed &&
      openPendingOutcome(em, {
        debateId: lease.debateId,
        confidence: completed.verdict.confidence,
        recommendation: completed.verdict.recommendation,
        domain: completed.domain,
      }),
    completed && queueEmbedding(em, lease.debateId),
    outcome.calls?.length && storeCalls(em, lease, outcome.calls),
    chargedFor(em, lease.debateId).then((credits) =>
      // By id alone: the fenced update above holds the row in this transaction.
      k
        .updateTable('debates')
        .set({ cost: sql`jsonb_set(cost, '{credits}', to_jsonb(${credits}::int))` })
        .where('id', '=', lease.debateId)
        .execute(),
    ),
    queueDebateWebhook(em, webhookOf(lease, outcome, traceParent)),
    last && (last.events.length > 0 || last.state !== null)
      ? persistMany([{ lease, batch: last }]).execute(k)
      : undefined,
  ];
}

/** The judge's and classifier's calls the cost counts. */
const storeCalls = (em: Em, lease: Lease, calls: NonNullable<DebateOutcome['calls']>) =>
  query<StoreTables>(em)
    .insertInto('debate_calls')
    .values(callRows(calls).map((row) => ({ debate_id: lease.debateId, attempt: lease.attempt, ...row })))
    .onConflict((conflict) => conflict.doNothing())
    .execute();

/** Waits for every one of `work` to settle, then fails with the first failure if any failed. */
async function allSettledOrFirstFailure(work: readonly unknown[]): Promise<void> {
  const failed = (await Promise.allSettled(work)).find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
}
