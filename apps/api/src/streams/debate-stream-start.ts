import type { Services, StoredEvent } from '@verdict/core';

/** The events that end a debate stream: nothing of the attempt comes after either. */
export const TERMINAL_EVENTS: ReadonlySet<string> = new Set(['debate.completed', 'debate.failed']);

const FINISHED_STATUSES: ReadonlySet<string> = new Set(['completed', 'failed']);

/** Where a stream of one debate starts, whatever carries it (the SSE routes, the tRPC subscription). */
export type DebateStreamStart = {
  id: string;
  /** The debate's current attempt: the only one whose events are streamed. */
  attempt: number;
  /** Nothing comes after `stored`: the debate is finished, or its stream already ended. */
  finished: boolean;
  /** The last event the client has; everything sent comes after it. */
  afterSeq: number;
  /** The attempt's stored events after `afterSeq`, in order. */
  stored: StoredEvent[];
};

/**
 * Where the stream of debate `id` starts for `userId`, who has its events up to `requested` (0: none): the
 * debate as they may read it (NOT_FOUND otherwise, also for a missing or deleted one), its current attempt's
 * stored events after that, and whether more will come.
 */
export async function debateStreamStart(
  core: Services,
  userId: string,
  id: string,
  requested: number,
): Promise<DebateStreamStart> {
  const debate = await core.debateAccess.visible(userId, id);
  const finished = FINISHED_STATUSES.has(debate.status);
  const stored = await core.debateEvents.storedAfter(id, debate.attempt, requested);
  if (stored.length > 0 || requested === 0 || finished) {
    return { id, attempt: debate.attempt, finished, afterSeq: requested, stored };
  }
  // Nothing after the client's last event. If the stream already ended there, nothing more will come. If
  // the id lies past the last stored event (a stale or made-up id), resume from the last stored event
  // instead: otherwise every later event, the final one included, would look already seen.
  const last = await core.debateEvents.lastStored(id, debate.attempt);
  return {
    id,
    attempt: debate.attempt,
    finished: last !== null && TERMINAL_EVENTS.has(last.type),
    afterSeq: Math.min(requested, last?.seq ?? 0),
    stored,
  };
}

/**
 * A start with nothing to send and nothing to come: the client already has the final event (EventSource's
 * reconnect after it, a resumed subscription). It streams nothing, so it is answered as a request, not a
 * stream open: it must not spend the budget of streams.
 */
export const streamsNothing = (start: DebateStreamStart): boolean =>
  start.finished && start.stored.length === 0;
