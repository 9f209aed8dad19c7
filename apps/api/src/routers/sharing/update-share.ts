import { ShareLinkSettings, UpdateShareInput } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';
import { SHARE_LINK_ERRORS } from './error-responses.ts';

export const updateShare = userProcedure
  .meta({
    errors: SHARE_LINK_ERRORS,
    openapi: {
      method: 'PATCH',
      path: '/api/share/{debateId}',
      summary: "Change a share link's settings",
      description: 'Only the settings sent change. Each is a JSON boolean: "true" or 1 is refused.',
    },
  })
  .input(UpdateShareInput)
  .output(ShareLinkSettings)
  .mutation(({ ctx, input }) =>
    ctx.services.sharing.updateSettings(ctx.caller.userId, input.debateId, input.settings),
  );
