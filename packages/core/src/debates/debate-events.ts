import type { EventBus } from '../bus/ports.ts';
import { query } from '../db/kysely.ts';
import type { StopListening } from '../db/listener.ts';
import type { Database } from '../db/orm.ts';
import { fanOutEvents } from './event-fanout.ts';
import type { StoredEvent } from './stored-event.ts';
import type { DebateTables } from './tables.ts';

export type { StoredEvent };

/** A stored event with the time its batch was stored (ISO 8601): what a timeline of the debate shows. */
export type TimedEvent = StoredEvent & { at: string };

export type DebateEvents = ReturnType<typeof createDebateEvents>;

/** The database notification channel of migration 0036: `<schema> <debate id> <attempt>` of an attempt that ended. */
const ATTEMPT_ENDS = 'debate_attempt_ends';

/** Debates per read when the followed attempts are looked at again: a statement's parameters stay few. */
const CURRENT_ATTEMPTS_PER_READ = 1000;

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

  /** The current attempt of each of the debates that is not deleted. */
  const currentAttempts = async (debateIds: string[]): Promise<Map<string, number>> => {
    const current = new Map<string, number>();
    for (let from = 0; from < debateIds.length; from += CURRENT_ATTEMPTS_PER_READ) {
      const rows = await query<DebateTables>(db.em())
        .selectFrom('debates')
        .select(['id', 'attempt'])
        .where('id', 'in', debateIds.slice(from, from + CURRENT_ATTEMPTS_PER_READ))
        .where('deleted_at', 'is', null)
        .execute();
      for (const row of rows) current.set(row.id, row.attempt);
    }
    return current;
  };

  // The bus's follow is looked up on each subscription, not captured: a test may count its subscriptions.
  const feeds = fanOutEvents(
    (...args) => bus.follow(...args),
    { storedAfter, isCurrent, currentAttempts },
    onError,
  );

  // Started by the first follower, so that processes that never stream (engine nodes, operator commands)
  // never listen. Until it listens, and whenever its connection is lost, followers' checks look at storage.
  let listening: Promise<StopListening | null> | null = null;
  const listenForEnds = () =>
    db
      .listen(ATTEMPT_ENDS, {
        onNotification: (payload) => {
          const [schema, debateId, attempt] = payload.split(' ');
          if (schema === db.schema && debateId) feeds.attemptEnded(debateId, Number(attempt));
        },
        onLost: () => feeds.hearingEnds(false),
        onListening: () => feeds.hearingEnds(true),
      })
      .catch((error: unknown) => {
        onError(error);
        return null; // never listening: checks look at storage, as they did before
      });

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
    follow: (...args: Parameters<typeof feeds.follow>) => {
      listening ??= listenForEnds();
      return feeds.follow(...args);
    },

    /**
     * Whether a followed attempt is still the debate's: without a statement while its end would be heard,
     * else a look at storage (what was stored and not published goes to its followers), at most one per
     * attempt every `everyMs`.
     */
    check: feeds.check,

    /** Debate attempts this process follows, and the followers sharing them (its open streams). */
    following: feeds.following,

    /** Stops hearing of ends (the process is closing). */
    close: async () => {
      const stop = await listening;
      feeds.hearingEnds(false);
      await stop?.();
    },
  };
}
