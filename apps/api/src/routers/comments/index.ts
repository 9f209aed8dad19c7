import { router } from '../../trpc/init.ts';
import { createComment } from './create-comment.ts';
import { deleteComment } from './delete-comment.ts';
import { listComments } from './list-comments.ts';

export const commentsRouter = router({ list: listComments, create: createComment, delete: deleteComment });
