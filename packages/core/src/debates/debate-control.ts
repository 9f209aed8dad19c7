import { commandDebate } from './command-debate.ts';
import type { DebateControlResources } from './debate-resources.ts';
import { inspectDebate } from './inspect-debate.ts';
import { removeDebate } from './remove-debate.ts';

export type { DebateRemovalHooks } from './debate-resources.ts';
export type { DebateInspection } from './inspect-debate.ts';

/**
 * Where a debate's actor is: live from the engine node that holds it (its state and transition history), or,
 * when no node holds it, its stored status (the engine's chart says which state that implies) and the history
 * stored with the attempt's last snapshot (empty before the first step). `attempt` names the current attempt.
 */

/**
 * Commands and debugging views for the owner of a debate, through whichever node holds it; the permanent
 * delete runs the removal hooks given here. One operation a file.
 */
export function createDebateControl(resources: DebateControlResources) {
  return {
    removePermanently: removeDebate(resources),
    command: commandDebate(resources),
    inspect: inspectDebate(resources),
  };
}
