import { confidencePercent, DebateIdInput, VerdictDetail } from '@verdict/contracts';
import { type Services, toDebateObject } from '@verdict/core';
import { userProcedure } from '../../trpc/init.ts';

/** A debate the caller may see, with its whole verdict once completed (the /v1 and /api reads). */
export async function readFullVerdict(
  services: Services,
  userId: string,
  id: string,
): Promise<VerdictDetail> {
  const { debate, shows } = await services.debateAccess.shown(userId, id);
  const verdict = debate.status === 'completed' ? debate.verdict : null;
  return {
    debate: toDebateObject(debate, shows),
    verdict: verdict
      ? {
          ...verdict,
          confidence: confidencePercent(verdict.confidence),
          ...(verdict.calibratedConfidence !== undefined
            ? { calibratedConfidence: confidencePercent(verdict.calibratedConfidence) }
            : {}),
        }
      : null,
  };
}

/**
 * The dashboard's read of a whole verdict (decision matrix, evidence, dissent), which GET /api/debates/:id
 * summarises: the same answer as /v1/verdicts/:id, for a session as well as a key.
 */
export const getFullVerdict = userProcedure
  .meta({
    errors: { NOT_FOUND: 'Missing, deleted, or a private debate of another account' },
    extension: true,
    openapi: {
      method: 'GET',
      path: '/api/debates/{id}/verdict',
      summary:
        'A debate and its full verdict (confidence as a whole-number percent); null until it completes',
    },
  })
  .input(DebateIdInput)
  .output(VerdictDetail)
  .query(({ ctx, input }) => readFullVerdict(ctx.services, ctx.caller.userId, input.id));
