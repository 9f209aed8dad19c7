import { AttachmentPathInput } from '@verdict/contracts';
import { z } from 'zod';
import { userProcedure } from '../../trpc/init.ts';

export const deleteAttachment = userProcedure
  .meta({
    errors: {
      FORBIDDEN: 'The caller may read the debate (a workspace’s, or a public one) but does not own it',
      NOT_FOUND: 'No such debate or attachment, or the debate is hidden from the caller',
    },
    successStatus: 204,
    openapi: {
      method: 'DELETE',
      path: '/api/debates/{id}/attachments/{attachmentId}',
      summary: 'Delete an attachment',
      description: 'Its stored bytes go with it; rounds that start afterwards no longer see its text.',
    },
  })
  .input(AttachmentPathInput)
  .output(z.void())
  .mutation(({ ctx, input }) =>
    ctx.services.attachments.remove(ctx.caller.userId, input.id, input.attachmentId),
  );
