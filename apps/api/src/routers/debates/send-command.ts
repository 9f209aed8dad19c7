import { DebateCommandInput, DebateCommandResult } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';
import { CONTROL_DEBATE_ERRORS } from './error-responses.ts';

export const sendCommand = userProcedure
  .meta({
    errors: {
      ...CONTROL_DEBATE_ERRORS,
      DEBATE_NOT_RUNNING: 'No engine runs the debate right now',
    },
    openapi: {
      method: 'POST',
      path: '/api/debates/{id}/commands',
      summary: 'Pause, resume, skip or inject into a running debate',
      description:
        'Pause takes effect once the responses in flight complete; skip forces the verdict now; inject ' +
        'queues payload.content for the next round. `accepted` is false when the command does not apply ' +
        'to the current state (e.g. resume while running).',
    },
  })
  .input(DebateCommandInput)
  .output(DebateCommandResult)
  .mutation(({ ctx, input }) => ctx.services.debates.command(ctx.caller.userId, input));
