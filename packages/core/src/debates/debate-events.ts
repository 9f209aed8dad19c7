import type { DebateEvent } from '@verdict/contracts';
import type { EventBus } from '../bus/ports.ts';
import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import { fanOutFollow } from './event-fanout.ts';
import type { DebateTables } from './tables.ts';

/** A stored event of a debate stream: its number, type and payload (as the engine stored it). */
export type StoredEvent = { seq: number; type: string; data: unknown };

/** A stored event with the time its batch was stored (ISO 8601): what a timeline of the debate shows. */
export type TimedEvent = StoredEvent & { at: string };

export type DebateEvents = ReturnType<typeof createDebateEvents>;

/** Event numbers are PostgreSQL `int`s: a reader asking past the largest one has nothing more to read. */
const LAST_POSSIBLE_SEQ = 2_147_483_647;

/**
 * The events of a debate attempt as its readers see them: the stored log in PostgreSQL, which has every
 * event, and the live ones on the bus. The engine writes them (engine/store); this module only reads.
 */
export function createDebateEvents(db: Database, bus: EventBus, onError: (error: unknown) => void) {
  // Looked up on each subscription, not captured: a test may count the bus's subscriptions.
  const follow = fanOutFollow((...args) => bus.follow(...args), onError);
  return {
    /** The stored events of `attempt` after `afterSeq`, in order. */
    storedAfter: async (debateId: string, attempt: number, afterSeq: number): Promise<StoredEvent[]> =>
      afterSeq >= LAST_POSSIBLE_SEQ
        ? []
        : query<DebateTables>(db.em())
            .selectFrom('debate_events')
            .select(['seq', 'type', 'data'])
            .where('debate_id', '=', debateId)
            .where('attempt', '=', attempt)
            .where('seq', '>', afterSeq)
            .orderBy('seq')
            .execute(),

    /** Every stored event of `attempt`, in order, with its time. */
    timeline: async (debateId: string, attempt: number): Promise<TimedEvent[]> => {
      const rows = await query<DebateTables>(db.em())
        .selectFrom('debate_events')
        .select(['seq', 'type', 'data', 'created_at'])
        .where('debate_id', '=', debateId)
        .where('attempt', '=', attempt)
        .orderBy('seq')
        .execute();
      return rows.map(({ seq, type, data, created_at }) => ({
        seq,
        type,
        data,
        at: new Date(created_at).toISOString(),
      }));
    },

    /** Whether `attempt` is still the debate's and the debate is not deleted: what a follower waits on. */
    isCurrent: async (debateId: string, attempt: number): Promise<boolean> =>
      (await query<DebateTables>(db.em())
        .selectFrom('debates')
        .select('id')
        .where('id', '=', debateId)
        .where('attempt', '=', attempt)
        .where('deleted_at', 'is', null)
        .executeTakeFirst()) !== undefined,

    /** The last stored event of `attempt`, or null before the first. */
    lastStored: async (debateId: string, attempt: number): Promise<{ seq: number; type: string } | null> =>
      (await query<DebateTables>(db.em())
        .selectFrom('debate_events')
        .select(['seq', 'type'])
        .where('debate_id', '=', debateId)
        .where('attempt', '=', attempt)
        .orderBy('seq', 'desc')
        .limit(1)
        .executeTakeFirst()) ?? null,

    /**
     * The events of `attempt` after `afterSeq` as the bus delivers them, until the returned stop; one bus
     * subscription per attempt however many follow it (event-fanout.ts).
     */
    follow: (debateId: string, attempt: number, afterSeq: number, onEvent: (event: DebateEvent) => void) =>
      follow(debateId, attempt, afterSeq, onEvent),

    /** Debate attempts this process holds a bus subscription for, and the followers sharing them. */
    following: () => ({ attempts: follow.feeds(), followers: follow.followers() }),
  };
}
