import type { EventBus } from '../../bus/ports.ts';
import type { StoredEvent } from '../stored-event.ts';

/** Where a feed reads what the bus did not bring: the stored log, which has every event. */
export type FeedStorage = {
  storedAfter: (debateId: string, attempt: number, afterSeq: number) => Promise<StoredEvent[]>;
  isCurrent: (debateId: string, attempt: number) => Promise<boolean>;
  /** The current attempt of each debate that is not deleted, in one read. */
  currentAttempts: (debateIds: string[]) => Promise<Map<string, number>>;
};

/** Called as methods (`follower.onEvent(event)`): a follower may be an object of a class. */
export type FeedFollower = {
  /** The attempt's events after the follower's afterSeq, each once, in order, without a gap. */
  onEvent(event: StoredEvent): void;
  /** The feed could not read what the bus skipped: the follower cannot be sure to get every event. */
  onLost(): void;
  /** The attempt ended without its last event: the debate was deleted, or retried as a new attempt. */
  onEnded(): void;
};

/** One debate attempt's subscription, shared by every follower of it in this process. */
export type Feed = {
  /** Every event of the attempt, in order from seq 1: what a late follower is replayed. */
  events: StoredEvent[];
  lastSeq: number;
  followers: Set<FeedFollower>;
  subscription: Promise<() => void>;
  /** Steps that read storage, run one at a time; while any is queued, bus events queue behind it. */
  queue: Promise<unknown>;
  queued: number;
  lastCheck: { at: number; current: Promise<boolean> } | null;
};

/** A follower that joined while ends were heard, not looked at yet (look-after-joins.ts). */
export type Joined = { debateId: string; attempt: number; feed: Feed; follower: FeedFollower };

/**
 * What the steps of one fan-out (event-fanout.ts) share: the bus's follow, the storage and the error sink
 * it was given, and the attempts it follows.
 */
export type FanOut = {
  follow: EventBus['follow'];
  storage: FeedStorage;
  onError: (error: unknown) => void;
  /** The feeds of the followed attempts, by `keyOf`. */
  feeds: Map<string, Feed>;
  /** Every end of an attempt is heard as it commits (`attemptEnded`): checks need not ask storage. */
  hearingEnds: boolean;
  /** Followers who joined while ends were heard and were not looked at yet (`lookAfterJoins`). */
  joined: Joined[];
};

export const keyOf = (debateId: string, attempt: number) => `${debateId}:${attempt}`;
