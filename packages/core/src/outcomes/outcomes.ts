import type { EntityManager } from '@mikro-orm/core';
import type { DebateDomain } from '@verdict/contracts';
import { type RawBuilder, sql } from 'kysely';
import { query } from '../db/kysely.ts';
import type { DebateTables } from '../debates/tables.ts';
import { getOutcome } from './get-outcome.ts';
import { outcomeHistory } from './outcome-history.ts';
import type { OutcomeResources } from './outcome-resources.ts';
import { pendingOutcomes } from './pending-outcomes.ts';
import { recordOutcome } from './record-outcome.ts';
import { queueScoreRefresh } from './score-queue.ts';
import { setOutcomeReminder } from './set-outcome-reminder.ts';
import { skipOutcome } from './skip-outcome.ts';
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

/**
 * Outcome records of the caller's own debates (deleted debates have none to show: 404). One operation a
 * file, over the resources given here (outcome-resources.ts: what they share).
 */
export function createOutcomes(resources: OutcomeResources) {
  return {
    get: getOutcome(resources),
    record: recordOutcome(resources),
    skip: skipOutcome(resources),
    setReminder: setOutcomeReminder(resources),
    pending: pendingOutcomes(resources),
    history: outcomeHistory(resources),
  };
}

export type Outcomes = ReturnType<typeof createOutcomes>;
