import { AppError, type Services, type StoredEvent } from '@verdict/core';
import { type DebateStreamStart, TERMINAL_EVENTS } from './debate-stream-start.ts';
import { everyBeat } from './heartbeats.ts';

export type DebateFeedOptions = {
  /** Whose stream it is: a debate that goes away is told apart as deleted (NOT_FOUND) or retried. */
  userId: string;
  /** How often a followed debate's storage is looked at (one look per debate for all its feeds). */
  checkEveryMs: number;
};

/** A debate's events as a pull-based stream sends them (the tRPC subscription). */
export type DebateFeed = {
  /**
   * The events after the start's afterSeq, each once and in order, ending after debate.completed or
   * debate.failed. Read it once. It throws when it can no longer be sure to send every event: what it holds
   * is sent first, then the error (the client resumes from its last id, or hears why it cannot).
   */
  events: AsyncGenerator<StoredEvent, void>;
  /** Stops following; `events` ends after what it holds, throwing `error` when one is given. Idempotent. */
  end: (error?: Error) => void;
};

/**
 * The stored events of the start, then the live ones from the process's fan-out (core's debateEvents.follow:
 * one bus subscription per debate attempt in this process, however many follow it; what the bus skipped is
 * read from storage), as the SSE route streams them. A debate deleted meanwhile ends the feed with NOT_FOUND,
 * one retried with a resume hint: the fan-out hears of either as it commits (onEnded), and every
 * `checkEveryMs` the feed asks it too (debateEvents.check), which looks at storage only while that news may
 * be missed.
 */
export function followDebate(
  core: Services,
  start: DebateStreamStart,
  options: DebateFeedOptions,
): DebateFeed {
  const queue: StoredEvent[] = [];
  let lastQueued = start.afterSeq;
  let ended = false;
  let failure: Error | undefined;
  let wake: (() => void) | null = null;
  let stopFollowing: (() => void) | null = null;
  let stopChecks: (() => void) | undefined;

  const end = (error?: Error) => {
    if (ended) return;
    ended = true;
    failure = error;
    stopChecks?.();
    stopFollowing?.();
    stopFollowing = null;
    wake?.();
  };
  /** Queues each event once and in order: the stored ones first, then the fan-out's. */
  const deliver = (event: StoredEvent) => {
    if (ended || event.seq <= lastQueued) return;
    lastQueued = event.seq;
    queue.push(event);
    if (TERMINAL_EVENTS.has(event.type)) end();
    else wake?.();
  };
  const gone = () => whyGone(core, options.userId, start.id);

  for (const event of start.stored) deliver(event);
  // A finished debate's stored events are all there is (its last events are stored with its final state).
  if (start.finished) end();
  if (!ended) {
    stopChecks = checkStillCurrent(core, start, options.checkEveryMs, { end, gone });
    core.debateEvents
      // A fan-out that could not read what the bus skipped has told core's error report; the client resumes.
      .follow(start.id, start.attempt, lastQueued, {
        onEvent: deliver,
        onLost: () => end(unsure()),
        onEnded: () => void gone().then(end),
      })
      .then((stop) => {
        // The feed may have ended while the subscription was being set up (terminal replay, hang-up).
        if (ended) stop();
        else stopFollowing = stop;
      })
      .catch((error: unknown) => end(unsure(error)));
  }

  async function* events(): AsyncGenerator<StoredEvent, void> {
    try {
      for (;;) {
        const next = queue.shift();
        if (next) {
          yield next;
          continue;
        }
        if (ended) break;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = null;
      }
      if (failure) throw failure;
    } finally {
      end();
    }
  }

  return { events: events(), end };
}

/** Every `everyMs`, asks whether the attempt followed is still the debate's; ends the feed when it is not. */
function checkStillCurrent(
  core: Services,
  start: DebateStreamStart,
  everyMs: number,
  feed: { end: (error?: Error) => void; gone: () => Promise<Error> },
) {
  return everyBeat(everyMs, () => {
    core.debateEvents.check(start.id, start.attempt, everyMs).then(
      async (current) => {
        if (!current) feed.end(await feed.gone());
      },
      (error: unknown) => feed.end(unsure(error)),
    );
  });
}

/** The debate is no longer the attempt followed: deleted (NOT_FOUND), or retried (resume on the new one). */
async function whyGone(core: Services, userId: string, debateId: string): Promise<Error> {
  try {
    await core.debateAccess.visible(userId, debateId);
  } catch (error) {
    if (error instanceof AppError) return error;
    return unsure(error);
  }
  return new AppError('SERVICE_UNAVAILABLE', 'The debate started a new attempt; reconnect to follow it');
}

/** The feed cannot be sure to send every event from here on: the client is to reconnect and resume. */
const unsure = (cause?: unknown) =>
  new AppError(
    'SERVICE_UNAVAILABLE',
    'The stream lost track of the debate’s events; resume from the last one',
    {
      cause,
    },
  );
