import { ShareDebateInput, ShareLink } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';
import { requestLinks } from '../../trpc/request-links.ts';
import { SHARE_DEBATE_ERRORS } from './error-responses.ts';

export const createShare = userProcedure
  .meta({
    errors: SHARE_DEBATE_ERRORS,
    openapi: {
      method: 'POST',
      path: '/api/share/{debateId}',
      summary: 'Share a debate by link, or rotate its link',
      description:
        'Answers a new token and shareUrl ({APP_URL}/share/<token>; without APP_URL and PUBLIC_BASE_URL, on ' +
        'the origin this request came to); a link the debate already had stops working at once, and its ' +
        'settings carry over. The token is shown here only: it is stored hashed.',
    },
  })
  .input(ShareDebateInput)
  .output(ShareLink)
  .mutation(async ({ ctx, input }) => {
    const link = await ctx.services.sharing.share(ctx.caller.userId, input.debateId);
    return { ...link, shareUrl: requestLinks(ctx.req, ctx.services.config).rebase(link.shareUrl) };
  });
