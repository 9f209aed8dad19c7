/**
 * A short name for a machine event: xstate names the end of an invoked actor after the actor's id
 * ("xstate.done.actor.0.debate.judging"), which says less than "done" on an edge out of the state that invoked it.
 */
export function eventLabel(event: string): string {
  if (event.startsWith('xstate.done.actor.')) return 'done';
  if (event.startsWith('xstate.error.actor.')) return 'error';
  if (event === 'xstate.init') return 'init';
  if (event === 'xstate.restore') return 'restore';
  return event;
}

export const transitionLabel = (event: string, guard: string | null) =>
  guard ? `${eventLabel(event)} [${guard}]` : eventLabel(event);
