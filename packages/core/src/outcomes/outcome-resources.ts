import type { EntityManager } from '@mikro-orm/core';
import type { OutcomeRecord } from '@verdict/contracts';
import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import type { DebateTables } from '../debates/tables.ts';
import type { CoreResources } from '../resources.ts';
import { notFound } from '../shared/app-error.ts';
import type { OutcomeTables } from './tables.ts';

/** What the outcome operations use of core's resources. */
export type OutcomeResources = Pick<CoreResources, 'db' | 'clock'>;

/** Typed queries on the outcomes and the debates they are of, on `em`. */
export const outcomeQuery = (em: EntityManager) => query<OutcomeTables & DebateTables>(em);

/** Outcome records with their debate's question; those of deleted debates are left out (none to show). */
export const selectRecords = (em: EntityManager) =>
  outcomeQuery(em)
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

export type OutcomeRow = Awaited<ReturnType<ReturnType<typeof selectRecords>['executeTakeFirstOrThrow']>>;

export const toRecord = (row: OutcomeRow): OutcomeRecord => ({
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

/**
 * The caller's outcome record of `debateId`, or NOT_FOUND; locked for an update (`forUpdate`) until the
 * transaction of `em` ends.
 */
export async function ownRecord(
  em: EntityManager,
  userId: string,
  debateId: string,
  lock: 'none' | 'forUpdate' = 'none',
): Promise<OutcomeRow> {
  let select = selectRecords(em).where('o.debate_id', '=', debateId).where('o.owner_id', '=', userId);
  if (lock === 'forUpdate') select = select.forUpdate('o');
  const row = await select.executeTakeFirst();
  if (!row) throw notFound('Outcome');
  return row;
}

/** Changes the caller's record in one transaction with what goes with the change, and returns it. */
export const changeOwnRecord = (
  db: Database,
  userId: string,
  debateId: string,
  apply: (em: EntityManager, before: OutcomeRow) => Promise<void>,
): Promise<OutcomeRecord> =>
  db.em().transactional(async (em) => {
    await apply(em, await ownRecord(em, userId, debateId, 'forUpdate'));
    return toRecord(await ownRecord(em, userId, debateId, 'forUpdate'));
  });
