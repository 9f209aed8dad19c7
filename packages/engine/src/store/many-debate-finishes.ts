import {
  openPendingOutcomesFrom,
  prepared,
  queueDebateWebhooksFrom,
  queueEmbeddingsFrom,
  queueScoreRefreshesFrom,
} from '@verdict/core';
import { sql } from 'kysely';
import { batchRow, fenced, storeEventsOf, storeStateOf } from './many-debate-writes.ts';
import type { DebateOutcome, Lease, LogBatch } from './records.ts';

/** One attempt's end as one row of a statement that ends many: what `AttemptOutcome.finish` was given. */
export type FinishWrite = {
  readonly lease: Lease;
  readonly outcome: DebateOutcome;
  readonly at: Date;
  readonly last: LogBatch | undefined;
  readonly traceParent: string | undefined;
};

export const finishKey = (write: FinishWrite) => write.lease.debateId;

/** The `debate.completed` or `debate.failed` webhook, once per attempt (its dedupe key). */
export function webhookOf(lease: Lease, outcome: DebateOutcome, traceParent: string | undefined) {
  const event = outcome.status === 'completed' ? 'debate.completed' : 'debate.failed';
  return {
    debateId: lease.debateId,
    event,
    dedupeKey: `${event}:${lease.debateId}:${lease.attempt}`,
    traceParent,
    payload:
      outcome.status === 'completed'
        ? {
            debateId: lease.debateId,
            status: 'completed',
            recommendation: outcome.verdict.recommendation,
            confidence: outcome.verdict.confidence,
            oneLiner: outcome.verdict.oneLiner,
          }
        : { debateId: lease.debateId, status: 'failed', code: outcome.code, error: outcome.message },
  } as const;
}

/** The judge's and classifier's calls of an end as `debate_calls` rows, numbered in order. */
export const callRows = (calls: DebateOutcome['calls']) =>
  (calls ?? []).map((call, index) => ({
    seq: index + 1,
    kind: call.kind,
    model: call.model,
    input_tokens: call.inputTokens,
    output_tokens: call.outputTokens,
    cost_nano_usd: call.costNanoUsd,
  }));

/** The final fields of one attempt as its row of the statement (beside its last batch's). */
function finalFields({ lease, outcome, at, traceParent }: FinishWrite): Record<string, unknown> {
  const completed = outcome.status === 'completed' ? outcome : null;
  const webhook = webhookOf(lease, outcome, traceParent);
  return {
    final_status: outcome.status,
    verdict: completed?.verdict ?? null,
    agent_count: completed?.agentCount ?? null,
    round_count: completed?.roundCount ?? null,
    agents_used: completed?.agentsUsed ?? null,
    domain: completed?.domain ?? null,
    confidence: completed?.verdict.confidence ?? null,
    recommendation: completed?.verdict.recommendation ?? null,
    failure_code: outcome.status === 'failed' ? outcome.code : null,
    failure_message: outcome.status === 'failed' ? outcome.message : null,
    cost: outcome.cost,
    completed_at: at.toISOString(),
    calls: callRows(outcome.calls),
    event: webhook.event,
    dedupe_key: webhook.dedupeKey,
    payload: webhook.payload,
    trace_parent: traceParent ?? null,
  };
}

/**
 * Many attempts' ends in one statement, each only while this node's lease epoch holds and the debate is
 * unfinished (a second finish changes nothing); answers the debates it ended. For each: the final row with
 * its cost's credits (what the ledger charged it: no refund is part of this path, attempt-outcome.ts), its
 * last batch (the events announcing the end, the last snapshot), the judge's and classifier's calls, its
 * webhook, and for a completed debate its pending outcome with a score refresh and its embedding's turn.
 * One statement is one transaction: all of a debate's end is stored, or none of it. The tables other
 * features own are written by their own fragments (`openPendingOutcomesFrom` …), as their transitions are.
 */
export function finishMany(writes: readonly FinishWrite[]) {
  const rows = writes.map((write) => batchRow(write.lease, write.last, finalFields(write)));
  const ended = sql`(select f.*, x.owner_id, x.created_at as debate_created_at from ended x join input f using (id))`;
  const completed = sql`(select id as debate_id, owner_id, confidence, recommendation, domain
                           from ${ended} e where final_status = 'completed')`;
  return prepared(
    'finish_debates',
    sql<{ id: string }>`with input as (
    select * from jsonb_to_recordset(${`[${rows.join(',')}]`}::jsonb)
      as f(id uuid, attempt int, epoch int, last_seq int, events jsonb, state jsonb, final_status text,
           verdict jsonb, agent_count int, round_count int, agents_used jsonb, domain text,
           confidence float8, recommendation text, failure_code text, failure_message text, cost jsonb,
           completed_at timestamptz, calls jsonb, event text, dedupe_key text, payload jsonb,
           trace_parent text)
  ), owner as (
    ${fenced('no key update', 'unfinished')}
  ), ended as (
    update debates d
       set status = f.final_status,
           verdict = case when f.final_status = 'completed' then f.verdict else d.verdict end,
           agent_count = case when f.final_status = 'completed' then f.agent_count else d.agent_count end,
           round_count = case when f.final_status = 'completed' then f.round_count else d.round_count end,
           agents_used = case when f.final_status = 'completed' then f.agents_used else d.agents_used end,
           domain = case when f.final_status = 'completed' then f.domain else d.domain end,
           failure_code = case when f.final_status = 'failed' then f.failure_code else d.failure_code end,
           failure_message = case when f.final_status = 'failed' then f.failure_message
                                  else d.failure_message end,
           cost = f.cost || jsonb_build_object('credits',
             (select coalesce(-sum(l.delta), 0)::int from credit_ledger l where l.debate_id = d.id)),
           completed_at = f.completed_at,
           lease_owner = null,
           lease_expires_at = null
      from owner o join input f using (id, attempt, epoch)
     where d.id = o.id
    returning d.id, d.owner_id, d.created_at
  ), opened as (
    ${openPendingOutcomesFrom(completed)}
  ), scored as (
    ${queueScoreRefreshesFrom(sql`opened`)}
  ), embedded as (
    ${queueEmbeddingsFrom(completed)}
  ), calls as (
    insert into debate_calls (debate_id, attempt, seq, kind, model, input_tokens, output_tokens, cost_nano_usd)
    select e.id, e.attempt, c.seq, c.kind, c.model, c.input_tokens, c.output_tokens, c.cost_nano_usd
      from ${ended} e, jsonb_to_recordset(e.calls)
        as c(seq int, kind text, model text, input_tokens int, output_tokens int, cost_nano_usd bigint)
    on conflict do nothing
  ), announced as (
    ${queueDebateWebhooksFrom(sql`(select owner_id as user_id, event, id as debate_id, dedupe_key, payload,
                                          trace_parent from ${ended} e)`)}
  ), stored_events as (
    ${storeEventsOf(ended)}
  ), stored_state as (
    ${storeStateOf(ended)}
  )
  select id from ended`,
  );
}
