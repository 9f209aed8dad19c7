import { ShareDebateInput, ShareLink } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';
import { SHARE_DEBATE_ERRORS } from './error-responses.ts';

export const createShare = userProcedure
  .meta({
    errors: SHARE_DEBATE_ERRORS,
    openapi: {
      method: 'POST',
      path: '/api/share/{debateId}',
      summary: 'Share a debate by link, or rotate its link',
      description:
        'Answers a new token and shareUrl ({APP_URL}/share/<token>); a link the debate already had stops ' +
        'working at once, and its settings carry over. The token is shown here only: it is stored hashed.',
    },
  })
  .input(ShareDebateInput)
  .output(ShareLink)
  .mutation(({ ctx, input }) => ctx.services.sharing.share(ctx.caller.userId, input.debateId));
