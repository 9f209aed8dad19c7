import { AttachmentList, ListAttachmentsInput } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';

export const listAttachments = userProcedure
  .meta({
    errors: { NOT_FOUND: 'No such debate, or it belongs to another user' },
    openapi: {
      method: 'GET',
      path: '/api/debates/{id}/attachments',
      summary: "List a debate's attachments",
      description:
        'Oldest first, with each one’s extraction status (pending, ready, or failed with the reason). The ' +
        'debate owner only. Upload with POST /api/debates/{id}/attachments (multipart, one part named file).',
    },
  })
  .input(ListAttachmentsInput)
  .output(AttachmentList)
  .query(({ ctx, input }) => ctx.services.attachments.list(ctx.caller.userId, input.id));
