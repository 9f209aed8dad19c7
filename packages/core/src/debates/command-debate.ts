import type { DebateCommandInput, DebateCommandResult } from '@verdict/contracts';
import type { DebateCommand } from '../bus/ports.ts';
import { AppError } from '../shared/app-error.ts';
import type { DebateControlResources } from './debate-resources.ts';

/** Sends the owner's command to the engine node that runs the debate, and answers its reply. */
export const commandDebate =
  ({ bus, access }: DebateControlResources) =>
  async (userId: string, input: DebateCommandInput): Promise<DebateCommandResult> => {
    await access.controlled(userId, input.id);
    const command: DebateCommand =
      input.type === 'inject'
        ? { type: 'inject', payload: { content: input.payload?.content ?? '' } }
        : { type: input.type };
    const reply = await bus.commands.send(input.id, command);
    if (reply === 'no_engine') {
      // Finished, not started yet, or between two nodes (one died; the next restores it within seconds).
      throw new AppError(
        'DEBATE_NOT_RUNNING',
        'No engine is running this debate right now; if it is not finished, try again in a few seconds',
      );
    }
    return {
      accepted: reply.accepted,
      state: reply.state,
      ...(reply.message ? { message: reply.message } : {}),
    };
  };
