import { DebateCommandInput, DebateCommandResult } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';

export const sendCommand = userProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/debates/{id}/commands',
      tags: ['debates'],
      summary: 'Pause, resume, skip or inject into a running debate',
      description:
        'Pause takes effect once the responses in flight complete; skip forces the verdict now; inject ' +
        'queues payload.content for the next round. `accepted` is false when the command does not apply ' +
        'to the current state (e.g. resume while running).',
      protect: true,
      errorResponses: {
        400: 'Invalid command',
        401: 'Not authenticated',
        404: 'Missing or not yours',
        409: 'No engine runs the debate (DEBATE_NOT_RUNNING)',
        429: 'Rate limited',
      },
    },
  })
  .input(DebateCommandInput)
  .output(DebateCommandResult)
  .mutation(({ ctx, input }) => ctx.core.debateControl.command(ctx.caller.userId, input));
