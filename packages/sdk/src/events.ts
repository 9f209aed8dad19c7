import type { DebateStreamEventData, NotificationData } from './generated/router.ts';
import type { SseMessage } from './sse.ts';

export type DebateStreamEventType = keyof DebateStreamEventData;

/**
 * One event of a debate stream: `switch (event.type)` narrows `data`. `id` is the event's number in the
 * debate (what Last-Event-ID resumes after). Event names this SDK version does not know are skipped.
 */
export type DebateStreamEvent = {
  [T in DebateStreamEventType]: { type: T; id: number; data: DebateStreamEventData[T] };
}[DebateStreamEventType];

/** The events that end a debate stream. */
export const TERMINAL_DEBATE_EVENTS: ReadonlySet<string> = new Set(['debate.completed', 'debate.failed']);

/** Every event name of the generated union, checked complete by the compiler. */
const KNOWN_DEBATE_EVENTS: Record<DebateStreamEventType, true> = {
  'debate.started': true,
  'round.started': true,
  'agent.thinking': true,
  argument: true,
  rebuttal: true,
  'agent.failed': true,
  'debate.paused': true,
  'debate.resumed': true,
  'content.injected': true,
  'round.converged': true,
  'synthesis.started': true,
  verdict: true,
  'debate.completed': true,
  'debate.failed': true,
};

export const isKnownDebateEvent = (name: string): name is DebateStreamEventType =>
  Object.hasOwn(KNOWN_DEBATE_EVENTS, name);

/** One event of the notification stream (`ping` keep-alives are not handed out). */
export type NotificationStreamEvent =
  | { type: 'connected'; data: { userId: string } }
  | { type: 'notification'; id: string | null; data: NotificationData };

/** A debate stream's messages as typed events, skipping event names this SDK version does not know. */
export function debateEvents(messages: AsyncGenerator<SseMessage>): AsyncGenerator<DebateStreamEvent> {
  return (async function* () {
    for await (const message of messages) {
      if (!isKnownDebateEvent(message.event)) continue;
      yield {
        type: message.event,
        id: Number(message.id),
        data: JSON.parse(message.data),
      } as DebateStreamEvent;
    }
  })();
}
