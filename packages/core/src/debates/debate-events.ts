import { fanOutEvents } from './event-fanout.ts';
import { followHearingEnds } from './events/attempt-ends.ts';
import { currentAttempts } from './events/current-attempts.ts';
import type { DebateEventResources } from './events/event-resources.ts';
import { isCurrent } from './events/is-current.ts';
import { lastStored } from './events/last-stored.ts';
import { storedAfter } from './events/stored-after.ts';
import type { StoredEvent } from './stored-event.ts';

export type { DebateEventResources } from './events/event-resources.ts';
export type { TimedEvent } from './events/timeline.ts';
export type { StoredEvent };

export type DebateEvents = ReturnType<typeof createDebateEvents>;

/**
 * The events of a debate attempt as its readers see them: the stored log in PostgreSQL, which has every
 * event, and the live ones on the bus. The engine writes them (engine/store); this module only reads.
 * One read a file under events/, over the resources given here.
 */
export function createDebateEvents(resources: DebateEventResources) {
  const storage = {
    storedAfter: storedAfter(resources),
    isCurrent: isCurrent(resources),
    currentAttempts: currentAttempts(resources),
  };
  // The bus's follow is looked up on each subscription, not captured: a test may count its subscriptions.
  const feeds = fanOutEvents((...args) => resources.bus.events.follow(...args), storage, resources.onError);
  const ends = followHearingEnds(resources, feeds);
  return {
    storedAfter: storage.storedAfter,
    isCurrent: storage.isCurrent,
    lastStored: lastStored(resources),

    /**
     * The events of `attempt` after `afterSeq`, each once, in order and without a gap (what the bus skipped
     * is read from storage), until the returned stop; one bus subscription per attempt in this process
     * however many follow it (event-fanout.ts).
     */
    follow: ends.follow,

    /**
     * Whether a followed attempt is still the debate's: without a statement while its end would be heard,
     * else a look at storage (what was stored and not published goes to its followers), at most one per
     * attempt every `everyMs`.
     */
    check: feeds.check,

    /** Debate attempts this process follows, and the followers sharing them (its open streams). */
    following: feeds.following,

    /** Stops hearing of ends (the process is closing). */
    close: ends.close,
  };
}
