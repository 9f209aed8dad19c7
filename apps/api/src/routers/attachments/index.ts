import { router } from '../../trpc/init.ts';
import { deleteAttachment } from './delete-attachment.ts';
import { fetchUrl } from './fetch-url.ts';
import { listAttachments } from './list-attachments.ts';

export const attachmentsRouter = router({
  list: listAttachments,
  delete: deleteAttachment,
  fetchUrl,
});
