import { prepared } from '@verdict/core';
import { type RawBuilder, sql } from 'kysely';
import type { Lease, LogBatch, StoredTurn } from './records.ts';

/** One debate's batch of events and state, as one row of a statement that writes many. */
export type BatchWrite = { readonly lease: Lease; readonly batch: LogBatch };

/** One debate's turn, as one row of a statement that writes many. */
export type TurnWrite = { readonly lease: Lease; readonly turn: StoredTurn };

export const batchKey = (write: BatchWrite) => write.lease.debateId;

/** A turn's row key: the turns of one round, saved at once, are different rows. */
export const turnKey = (turn: { id: string; attempt: number; round: number; agent: string }) =>
  `${turn.id}|${turn.attempt}|${turn.round}|${turn.agent}`;

export const turnWriteKey = ({ lease, turn }: TurnWrite) =>
  turnKey({ id: lease.debateId, attempt: lease.attempt, round: turn.round, agent: turn.agent });

/**
 * The debates of the statement whose lease epoch this node still holds (and, for a finish, that are still
 * unfinished), locked in id order (the order every transaction that locks several debates keeps, so two
 * statements sharing rows cannot deadlock). The rows come in as `input`, a recordset with id (the debate's),
 * attempt and epoch. Each comes with its debate's creation time, the partition key of its events (migration 0040),
 * read from the row locked here rather than asked for in a round trip of its own.
 */
export const fenced = (lock: 'share' | 'no key update', only: 'any' | 'unfinished' = 'any') =>
  sql`select d.id, d.attempt, d.lease_epoch as epoch, d.created_at as debate_created_at from debates d
       where (d.id, d.attempt, d.lease_epoch) in (select id, attempt, epoch from input)
         ${only === 'unfinished' ? sql`and d.status in ('pending', 'running', 'paused')` : sql``}
       order by d.id for ${sql.raw(lock)}`;

/** One debate's batch as a row of JSON text; its packed state is JSON already and goes in as it is. */
export function batchRow(
  lease: Lease,
  batch: LogBatch | undefined,
  more: Record<string, unknown> = {},
): string {
  const events = JSON.stringify(
    (batch?.events ?? []).map((e) => ({ seq: e.seq, type: e.type, data: e.data, at: e.at })),
  );
  const head = JSON.stringify({
    ...more,
    id: lease.debateId,
    attempt: lease.attempt,
    epoch: lease.epoch,
    status: batch?.status ?? null,
    last_seq: batch?.state?.lastSeq ?? 0,
  });
  return `${head.slice(0, -1)},"events":${events},"state":${batch?.state?.packed ?? 'null'}}`;
}

/**
 * The events of `batches` (a relation of id, attempt, debate_created_at and events) stored; one stored before
 * is left as is: it is in the same partition (all of a debate's events have its creation time as their key),
 * whose primary key the target-less `on conflict` takes.
 */
export const storeEventsOf = (batches: RawBuilder<unknown>) =>
  sql`insert into debate_events (debate_id, attempt, seq, type, data, created_at, debate_created_at)
    select b.id, b.attempt, e.seq, e.type, e.data, e.at, b.debate_created_at
      from ${batches} b, jsonb_to_recordset(b.events) as e(seq int, type text, data jsonb, at timestamptz)
    on conflict do nothing`;

/** The state of `batches` (a relation of id, attempt, state and last_seq) stored, where it has one. */
export const storeStateOf = (batches: RawBuilder<unknown>) =>
  sql`insert into debate_snapshots (debate_id, attempt, state, last_seq, updated_at)
    select b.id, b.attempt, b.state, b.last_seq, now()
      from ${batches} b
     where b.state is not null and jsonb_typeof(b.state) <> 'null'
    on conflict (debate_id) do update set attempt = excluded.attempt, state = excluded.state,
      last_seq = excluded.last_seq, updated_at = excluded.updated_at`;

/**
 * Many debates' events, states and the statuses they set in one statement, each only while this node's lease
 * epoch on it is current (attempt-log.ts batches them; attempt-outcome.ts writes a finish's last batch with it); answers the
 * debates written.
 *
 * The input is built as JSON text: each packed state is JSON already and goes in as it is, not parsed and
 * serialised again.
 */
export function persistMany(writes: readonly BatchWrite[]) {
  const rows = writes.map(({ lease, batch }) => batchRow(lease, batch));
  const mine = sql`(select b.*, o.debate_created_at from owner o join input b using (id, attempt, epoch))`;
  return prepared(
    'persist_batches',
    sql<{ id: string }>`with input as (
    select * from jsonb_to_recordset(${`[${rows.join(',')}]`}::jsonb)
      as b(id uuid, attempt int, epoch int, status text, last_seq int, events jsonb, state jsonb)
  ), owner as (
    ${fenced('no key update')}
  ), set_status as (
    update debates d set status = b.status
      from owner o join input b using (id, attempt, epoch)
     where d.id = o.id and b.status is not null and d.status in ('running', 'paused')
  ), stored_events as (
    ${storeEventsOf(mine)}
  ), stored_state as (
    ${storeStateOf(mine)}
  )
  select id from owner`,
  );
}

/** Many debates' turns in one statement, each only while this node's lease epoch on it is current. */
export function saveTurns(writes: readonly TurnWrite[]) {
  const rows = JSON.stringify(
    writes.map(({ lease, turn }) => ({
      id: lease.debateId,
      attempt: lease.attempt,
      epoch: lease.epoch,
      round: turn.round,
      agent: turn.agent,
      content: turn.content,
      model: turn.model,
      target_agent: turn.targetAgent,
      position: turn.position,
      citations: turn.citations ?? null,
      input_tokens: turn.inputTokens,
      output_tokens: turn.outputTokens,
      cost_nano_usd: turn.costNanoUsd,
    })),
  );
  return prepared(
    'save_turns',
    sql<{ id: string; round: number; agent: string; attempt: number }>`with input as (
    select * from jsonb_to_recordset(${rows}::jsonb)
      as t(id uuid, attempt int, epoch int, round int, agent text, content text, model text,
           target_agent text, position jsonb, citations jsonb, input_tokens int, output_tokens int,
           cost_nano_usd bigint)
  ), owner as (
    ${fenced('share')}
  ), stored as (
    insert into debate_turns (debate_id, attempt, round, agent, content, model, target_agent, position,
      citations, input_tokens, output_tokens, cost_nano_usd)
    select t.id, t.attempt, t.round, t.agent, t.content, t.model, t.target_agent,
      nullif(t.position, 'null'::jsonb), nullif(t.citations, 'null'::jsonb), t.input_tokens, t.output_tokens,
      t.cost_nano_usd
      from owner o join input t using (id, attempt, epoch)
    on conflict do nothing
  )
  select t.id, t.attempt, t.round, t.agent from owner o join input t using (id, attempt, epoch)`,
  );
}
