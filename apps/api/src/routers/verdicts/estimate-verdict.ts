import { CreateVerdictInput, DebateEstimate, RetryDebateHeaders } from '@verdict/contracts';
import { keyProcedure } from '../../trpc/init.ts';
import { v1DebateRequest } from './create-verdict.ts';

/** What POST /v1/verdicts would charge and spend for this body; nothing is created, charged or remembered. */
export const estimateVerdict = keyProcedure
  .meta({
    errors: {
      BYOK_REQUIRED: 'X-Provider-Keys on a plan without BYOK',
      VALIDATION_ERROR: 'BYOK plan without X-Provider-Keys, or no configured provider can run the debate',
    },
    extension: true,
    openapi: {
      requestHeaders: RetryDebateHeaders,
      method: 'POST',
      path: '/v1/verdicts/estimate',
      summary:
        'The credits and the tokens and USD range a verdict with this body would take; creates nothing',
      description:
        'The body of POST /v1/verdicts, validated alike; the answer as POST /api/debates/estimate (credits, ' +
        'refusal, per-model calls, tokens and USD low / expected / high, simulated).',
    },
  })
  .input(CreateVerdictInput)
  .output(DebateEstimate)
  .mutation(({ ctx, input }) => ctx.services.debates.estimate(v1DebateRequest(ctx, input)));
