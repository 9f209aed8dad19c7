import { DebateEvidence, DebateIdInput } from '@verdict/contracts';
import { keyProcedure } from '../../trpc/init.ts';
import { EVIDENCE_DESCRIPTION, EVIDENCE_ERRORS } from '../debates/get-evidence.ts';

/** The public API's evidence read, beside the verdict: the dashboard's GET /api/debates/:id/evidence, for a key. */
export const getVerdictEvidence = keyProcedure
  .meta({
    errors: EVIDENCE_ERRORS,
    extension: true,
    openapi: {
      method: 'GET',
      path: '/v1/verdicts/{id}/evidence',
      summary: "A verdict's evidence: the debate's passages, their citations and what each bears on",
      description: EVIDENCE_DESCRIPTION,
    },
  })
  .input(DebateIdInput)
  .output(DebateEvidence)
  .query(({ ctx, input }) => ctx.services.evidence.read(ctx.caller.userId, input.id));
