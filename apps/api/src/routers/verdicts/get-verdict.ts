import { DebateIdInput, VerdictDetail } from '@verdict/contracts';
import { keyProcedure } from '../../trpc/init.ts';
import { readFullVerdict } from '../debates/get-full-verdict.ts';

/** The public API's read of a verdict: the dashboard's GET /api/debates/:id/verdict, for a key. */
export const getVerdict = keyProcedure
  .meta({
    errors: { NOT_FOUND: 'Missing, or a private debate of another account' },
    openapi: {
      method: 'GET',
      path: '/v1/verdicts/{id}',
      summary: 'A debate and its full verdict (confidence as a whole-number percent)',
    },
  })
  .input(DebateIdInput)
  .output(VerdictDetail)
  .query(({ ctx, input }) => readFullVerdict(ctx.services, ctx.caller.userId, input.id));
