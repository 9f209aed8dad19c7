import type { EntityManager } from '@mikro-orm/core';
import {
  type DebateDomain,
  type OutcomeHistory,
  type OutcomeHistoryQuery,
  type OutcomeRecord,
  type OutcomeReminderInput,
  type OutcomeState,
  RESOLVED_OUTCOMES,
  type RecordOutcomeInput,
} from '@verdict/contracts';
import { type RawBuilder, sql } from 'kysely';
import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import type { DebateTables } from '../debates/tables.ts';
import { queueDebateWebhook } from '../outbox/webhook-outbox.ts';
import { notFound } from '../shared/app-error.ts';
import type { Clock } from '../shared/clock.ts';
import { queueScoreRefresh } from './score-queue.ts';
import type { OutcomeTables } from './tables.ts';

type Tables = OutcomeTables & DebateTables;

/**
 * Opens the pending outcome record of a debate that just completed, in the transaction storing its verdict
 * (the engine's finish): no completed debate is ever without one. The owner's score counts it once the score
 * worker has refreshed it (queued here). A second call changes nothing.
 */
export async function openPendingOutcome(
  em: EntityManager,
  debate: { debateId: string; confidence: number; recommendation: string; domain: DebateDomain },
) {
  const opened = await query<Tables>(em)
    .insertInto('outcomes')
    .columns(['debate_id', 'owner_id', 'confidence', 'recommendation', 'domain'])
    .expression((eb) =>
      eb
        .selectFrom('debates')
        .select([
          'id',
          'owner_id',
          sql.val(debate.confidence).as('confidence'),
          sql.val(debate.recommendation).as('recommendation'),
          sql.val(debate.domain).as('domain'),
        ])
        .where('id', '=', debate.debateId),
    )
    .onConflict((c) => c.column('debate_id').doNothing())
    .returning('owner_id')
    .executeTakeFirst();
  if (opened) await queueScoreRefresh(em, opened.owner_id);
}

/**
 * `openPendingOutcome` for many debates in one statement of the caller's (the engine's batched finish): the
 * insert as a data-modifying CTE over `completed`, a relation of (debate_id, owner_id, confidence,
 * recommendation, domain). It answers `owner_id` for each outcome it opened (a repeat opens none): the
 * caller queues those owners' scores with `queueScoreRefreshesFrom` in the same statement.
 */
export const openPendingOutcomesFrom = (completed: RawBuilder<unknown>) =>
  sql`insert into outcomes (debate_id, owner_id, confidence, recommendation, domain)
      select debate_id, owner_id, confidence, recommendation, domain from ${completed} as completed
      on conflict (debate_id) do nothing
      returning owner_id`;

/** Outcomes still waiting for their owner: neither told, nor skipped, nor "too early". */
const AWAITING: OutcomeState[] = ['pending'];

/** Outcome records of the caller's own debates (deleted debates have none to show: 404). */
export function createOutcomes(db: Database, clock: Clock) {
  const k = (em = db.em()) => query<Tables>(em);

  const selectRecords = (em?: EntityManager) =>
    k(em)
      .selectFrom('outcomes as o')
      .innerJoin('debates as d', 'd.id', 'o.debate_id')
      .select([
        'o.debate_id',
        'd.question',
        'o.domain',
        'o.confidence',
        'o.recommendation',
        'o.status',
        'o.notes',
        'o.satisfaction_score',
        'o.reminder_at',
        'o.created_at',
        'o.recorded_at',
      ])
      .where('d.deleted_at', 'is', null);

  type Row = Awaited<ReturnType<ReturnType<typeof selectRecords>['executeTakeFirstOrThrow']>>;
  const toRecord = (row: Row): OutcomeRecord => ({
    debateId: row.debate_id,
    question: row.question,
    domain: row.domain,
    confidence: row.confidence,
    recommendation: row.recommendation,
    outcomeStatus: row.status,
    outcomeNotes: row.notes ?? null,
    satisfactionScore: row.satisfaction_score ?? null,
    reminderAt: row.reminder_at ? new Date(row.reminder_at).toISOString() : null,
    createdAt: new Date(row.created_at).toISOString(),
    recordedAt: row.recorded_at ? new Date(row.recorded_at).toISOString() : null,
  });

  /** The caller's outcome record of `debateId`, locked for an update when `em` is a transaction's. */
  const ownRecord = async (userId: string, debateId: string, em?: EntityManager) => {
    let select = selectRecords(em).where('o.debate_id', '=', debateId).where('o.owner_id', '=', userId);
    if (em) select = select.forUpdate('o');
    const row = await select.executeTakeFirst();
    if (!row) throw notFound('Outcome');
    return row;
  };

  /** Changes the caller's record in one transaction with what goes with the change, and returns it. */
  const change = (
    userId: string,
    debateId: string,
    apply: (em: EntityManager, before: Row) => Promise<void>,
  ): Promise<OutcomeRecord> =>
    db.em().transactional(async (em) => {
      await apply(em, await ownRecord(userId, debateId, em));
      return toRecord(await ownRecord(userId, debateId, em));
    });

  return {
    get: async (userId: string, debateId: string) => toRecord(await ownRecord(userId, debateId)),

    /**
     * Records what happened (again, to correct it): `outcome.recorded` the first time a status is given,
     * `outcome.updated` after, queued with the change, and a refresh of the caller's score for the score
     * worker.
     */
    record: (userId: string, debateId: string, input: RecordOutcomeInput) =>
      change(userId, debateId, async (em, before) => {
        const at = new Date(clock.now());
        await k(em)
          .updateTable('outcomes')
          .set({
            status: input.outcomeStatus,
            notes: input.outcomeNotes ?? null,
            satisfaction_score: input.satisfactionScore ?? null,
            recorded_at: at,
          })
          .where('debate_id', '=', debateId)
          .execute();
        const firstTime = before.status === 'pending' || before.status === 'skipped';
        const event = firstTime ? 'outcome.recorded' : 'outcome.updated';
        await queueDebateWebhook(em, {
          debateId,
          event,
          dedupeKey: `${event}:${debateId}:${at.toISOString()}`,
          payload: {
            debateId,
            outcomeStatus: input.outcomeStatus,
            ...(firstTime ? {} : { previousStatus: before.status }),
            recordedAt: at.toISOString(),
          },
        });
        await queueScoreRefresh(em, userId);
      }),

    /** Marks a pending outcome skipped: it leaves the pending list and never counts in a score. */
    skip: (userId: string, debateId: string) =>
      change(userId, debateId, async (em, before) => {
        // Skipping a told outcome would silently take it out of the score: only a pending one is skipped.
        if (before.status !== 'pending') return;
        await k(em)
          .updateTable('outcomes')
          .set({ status: 'skipped', recorded_at: new Date(clock.now()) })
          .where('debate_id', '=', debateId)
          .execute();
      }),

    setReminder: (userId: string, debateId: string, input: OutcomeReminderInput) =>
      change(userId, debateId, async (em) => {
        await k(em)
          .updateTable('outcomes')
          .set({ reminder_at: new Date(input.reminderAt) })
          .where('debate_id', '=', debateId)
          .execute();
      }),

    /** Awaiting an answer: reminders already due first (soonest due first), then the oldest records. */
    pending: async (userId: string) => {
      const now = new Date(clock.now()).toISOString();
      const rows = await selectRecords()
        .where('o.owner_id', '=', userId)
        .where('o.status', 'in', AWAITING)
        .orderBy(sql`case when o.reminder_at <= ${now} then 0 else 1 end`)
        .orderBy('o.reminder_at', (ob) => ob.asc().nullsLast())
        .orderBy('o.created_at')
        .execute();
      return { outcomes: rows.map(toRecord) };
    },

    /** Resolved outcomes, most recently resolved first. */
    history: async (userId: string, q: OutcomeHistoryQuery): Promise<OutcomeHistory> => {
      let base = selectRecords()
        .where('o.owner_id', '=', userId)
        .where('o.status', 'in', [...RESOLVED_OUTCOMES]);
      if (q.domain) base = base.where('o.domain', '=', q.domain);
      const [rows, total] = await Promise.all([
        base
          .orderBy('o.recorded_at', 'desc')
          .orderBy('o.debate_id')
          .limit(q.limit)
          .offset(q.offset)
          .execute(),
        base.clearSelect().select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
      ]);
      return { outcomes: rows.map(toRecord), limit: q.limit, offset: q.offset, total: total.n };
    },
  };
}

export type Outcomes = ReturnType<typeof createOutcomes>;
