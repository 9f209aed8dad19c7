import { sql } from 'kysely';
import type { TransitionRecord } from '../bus/ports.ts';
import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import type { DebateTables } from './tables.ts';

/**
 * The transition history the engine stored with `attempt`'s last snapshot (engine/replay writes it with every
 * step and keeps it once the debate ends), or none before its first step. Read as the jsonb member only: the
 * machine snapshot beside it is of no use to a reader.
 */
export async function storedHistory(
  db: Database,
  debateId: string,
  attempt: number,
): Promise<TransitionRecord[]> {
  const row = await query<DebateTables>(db.em())
    .selectFrom('debate_snapshots')
    .select(sql<unknown>`state -> 'history'`.as('history'))
    .where('debate_id', '=', debateId)
    .where('attempt', '=', attempt)
    .executeTakeFirst();
  return Array.isArray(row?.history) ? row.history.filter(isTransition) : [];
}

const isTransition = (value: unknown): value is TransitionRecord => {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.at === 'string' &&
    typeof v.event === 'string' &&
    typeof v.state === 'string' &&
    (v.node === undefined || typeof v.node === 'string')
  );
};
