import { AddChainDebateInput, CHAIN_DEBATES_MAX, ChainWithNodes } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';

export const addChainDebate = userProcedure
  .meta({
    errors: {
      VALIDATION_ERROR:
        `The debate is already in the chain (details code already_in_chain), would follow itself or a ` +
        `debate that follows it (code cycle), or the chain already holds ${CHAIN_DEBATES_MAX} debates`,
      NOT_FOUND:
        "No such chain of the caller's, no such debate of the caller's (missing, deleted, or another " +
        "user's), or the parent debate is not in the chain (or was deleted)",
    },
    successStatus: 201,
    openapi: {
      method: 'POST',
      path: '/api/chains/{id}/debates',
      summary: 'Add one of your debates to a chain, under a debate already there',
      description:
        'A debate appears once per chain and joins as a new leaf, so the chain stays a tree. Answers the ' +
        'whole chain as it now is. Raises the webhook event chain.updated.',
    },
  })
  .input(AddChainDebateInput)
  .output(ChainWithNodes)
  .mutation(({ ctx, input }) => ctx.services.chains.addDebate(ctx.caller.userId, input));
