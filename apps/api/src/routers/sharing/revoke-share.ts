import { ShareDebateInput, ShareRevoked } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';
import { SHARE_LINK_ERRORS } from './error-responses.ts';

export const revokeShare = userProcedure
  .meta({
    errors: SHARE_LINK_ERRORS,
    openapi: {
      method: 'DELETE',
      path: '/api/share/{debateId}',
      summary: 'Stop sharing a debate: its link stops working at once',
    },
  })
  .input(ShareDebateInput)
  .output(ShareRevoked)
  .mutation(({ ctx, input }) => ctx.services.sharing.revoke(ctx.caller.userId, input.debateId));
