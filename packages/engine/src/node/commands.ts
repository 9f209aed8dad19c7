import type { CommandReply, DebateCommand } from '@verdict/core';
import { type RunningDebate, statePath } from '../runner/run-debate.ts';

/**
 * Applies a caller's command to a running actor and says whether it applied. Pause and skip take effect
 * as the machine defines (pause after the in-flight responses); inject is queued for the next round.
 */
export function applyCommand(debate: RunningDebate, command: DebateCommand): CommandReply {
  const { actor } = debate;
  const snapshot = actor.getSnapshot();
  const state = statePath(snapshot.value);
  const running = snapshot.matches('running');
  const paused = snapshot.matches({ running: 'paused' });
  const refuse = (message: string): CommandReply => ({ accepted: false, state, message });
  switch (command.type) {
    case 'pause':
      if (!running || paused) return refuse('Only a running debate can be paused');
      actor.send({ type: 'PAUSE' });
      break;
    case 'resume':
      if (!paused) return refuse('Only a paused debate can be resumed');
      actor.send({ type: 'RESUME' });
      break;
    case 'skip':
      if (!running) return refuse('The debate is no longer in its rounds');
      actor.send({ type: 'SKIP' });
      break;
    case 'inject':
      if (!running) return refuse('The debate is no longer in its rounds');
      actor.send({ type: 'INJECT', content: command.payload.content });
      break;
    case 'inspect':
      return { accepted: true, state, history: [...debate.history] };
    case 'cancel':
      // Stopping the actor aborts in-flight calls; the node sees the stop and drops the job.
      debate.stop();
      return { accepted: true, state: 'cancelled' };
    default:
      return assertNever(command);
  }
  return { accepted: true, state: statePath(actor.getSnapshot().value) };
}

function assertNever(value: never): never {
  throw new Error(`unhandled command ${JSON.stringify(value)}`);
}
