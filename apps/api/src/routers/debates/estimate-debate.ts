import { CreateDebateInput, DebateEstimate, RetryDebateHeaders } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';
import { apiDebateRequest } from './create-debate.ts';

/** What POST /api/debates would charge and spend for this body; nothing is created, charged or remembered. */
export const estimateDebate = userProcedure
  .meta({
    errors: {
      BYOK_REQUIRED:
        "X-Provider-Keys on a plan without BYOK, attachments without BYOK Pro, or a workspace whose owner's " +
        'plan no longer has workspaces',
      FORBIDDEN: 'Not a member of the workspace, or a viewer',
      VALIDATION_ERROR:
        'BYOK plan without X-Provider-Keys, attachmentIds naming something other than the caller’s own ready ' +
        'attachments, or no configured provider can run the debate',
    },
    extension: true,
    openapi: {
      requestHeaders: RetryDebateHeaders,
      method: 'POST',
      path: '/api/debates/estimate',
      summary: 'The credits and the tokens and USD range a debate with this body would take; creates nothing',
      description:
        'The body of POST /api/debates, validated alike. Answers the credits the create would charge now ' +
        '(or why it would be refused: refusal), and per model of the panel the router would pick the expected ' +
        'calls, tokens and list-price USD, low / expected / high. No debate, no debit, no Idempotency-Key ' +
        'used. With no provider configured the debate is simulated and costs 0 USD (simulated: true).',
    },
  })
  .input(CreateDebateInput)
  .output(DebateEstimate)
  .mutation(async ({ ctx, input }) => ctx.services.debates.estimate(apiDebateRequest(ctx, input)));
