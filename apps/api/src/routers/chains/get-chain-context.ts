import { CHAIN_CONTEXT_MAX, ChainContext, ChainIdInput } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';
import { OWN_CHAIN_ERRORS } from './error-responses.ts';

export const getChainContext = userProcedure
  .meta({
    errors: OWN_CHAIN_ERRORS,
    openapi: {
      method: 'GET',
      path: '/api/chains/{id}/context',
      summary: 'A decision chain summed up, to pass as the context of the next debate',
      description:
        `Each debate's question, recommendation, confidence and one-liner, in the order added, within ` +
        `${CHAIN_CONTEXT_MAX} characters (the limit of a debate's context). When it does not fit whole, ` +
        'the oldest debates give way first: their texts are shortened, then the oldest are left out (the ' +
        'root last). Deleted debates are left out.',
    },
  })
  .input(ChainIdInput)
  .output(ChainContext)
  .query(({ ctx, input }) => ctx.services.chains.context(ctx.caller.userId, input.id));
