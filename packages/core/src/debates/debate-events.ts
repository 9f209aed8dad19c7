import type { EventBus } from '../bus/ports.ts';
import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import { fanOutEvents } from './event-fanout.ts';
import type { StoredEvent } from './stored-event.ts';
import type { DebateTables } from './tables.ts';

export type { StoredEvent };

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
  /** The stored events of `attempt` after `afterSeq`, in order. */
  const storedAfter = async (debateId: string, attempt: number, afterSeq: number): Promise<StoredEvent[]> =>
    afterSeq >= LAST_POSSIBLE_SEQ
      ? []
      : query<DebateTables>(db.em())
          .selectFrom('debate_events')
          .select(['seq', 'type', 'data'])
          .where('debate_id', '=', debateId)
          .where('attempt', '=', attempt)
          .where('seq', '>', afterSeq)
          .orderBy('seq')
          .execute();

  /** Whether `attempt` is still the debate's and the debate is not deleted: what a follower waits on. */
  const isCurrent = async (debateId: string, attempt: number): Promise<boolean> =>
    (await query<DebateTables>(db.em())
      .selectFrom('debates')
      .select('id')
      .where('id', '=', debateId)
      .where('attempt', '=', attempt)
      .where('deleted_at', 'is', null)
      .executeTakeFirst()) !== undefined;

  // The bus's follow is looked up on each subscription, not captured: a test may count its subscriptions.
  const feeds = fanOutEvents((...args) => bus.follow(...args), { storedAfter, isCurrent }, onError);

  return {
    storedAfter,
    isCurrent,

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
     * The events of `attempt` after `afterSeq`, each once, in order and without a gap (what the bus skipped
     * is read from storage), until the returned stop; one bus subscription per attempt in this process
     * however many follow it (event-fanout.ts).
     */
    follow: feeds.follow,

    /**
     * A followed attempt's look at storage (what was stored and not published goes to its followers):
     * whether the attempt is still the debate's. At most one per attempt every `everyMs`.
     */
    check: feeds.check,

    /** Debate attempts this process follows, and the followers sharing them (its open streams). */
    following: feeds.following,
  };
}
