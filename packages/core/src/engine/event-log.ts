import type { DebateEvent, DebateEventBody } from '@verdict/contracts';
import type { EventBus } from '../bus/ports.ts';
import type { Database } from '../db/orm.ts';
import type { Clock } from '../shared/clock.ts';

export type EventLog = {
  /** Numbers the event and queues it; storage and publishing happen in order behind it. */
  emit: (body: DebateEventBody) => void;
  /** Resolves once every emitted event is stored and published; rejects with the first failure. */
  flush: () => Promise<void>;
  readonly lastSeq: number;
};

const INSERT_EVENT = `insert into debate_events (debate_id, attempt, seq, type, data, created_at)
  values (?, ?, ?, ?, ?::jsonb, ?) on conflict do nothing`;

/**
 * The durable, gap-free stream of one debate attempt: each event is written to PostgreSQL (the source of
 * truth) and then published on the bus with its attempt-scoped id. After a failure nothing further is
 * written, so the stored log never has a hole; the job is retried instead.
 */
export function createEventLog(
  db: Database,
  bus: EventBus,
  clock: Clock,
  scope: { debateId: string; attempt: number; afterSeq: number },
): EventLog {
  let seq = scope.afterSeq;
  let chain: Promise<void> = Promise.resolve();
  let failure: unknown = null;
  return {
    emit: (body) => {
      const event = {
        ...body,
        debateId: scope.debateId,
        attempt: scope.attempt,
        seq: ++seq,
        at: new Date(clock.now()).toISOString(),
      } as DebateEvent;
      chain = chain.then(async () => {
        if (failure) return;
        try {
          await db.execute(INSERT_EVENT, [
            event.debateId,
            event.attempt,
            event.seq,
            event.type,
            JSON.stringify(event.data),
            event.at,
          ]);
          await bus.publish(event);
        } catch (err) {
          failure = err;
        }
      });
    },
    flush: async () => {
      await chain;
      if (failure) throw failure;
    },
    get lastSeq() {
      return seq;
    },
  };
}
