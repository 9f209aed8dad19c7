import type { CommentResources } from './comment-resources.ts';
import { deleteComment } from './delete-comment.ts';
import { listComments } from './list-comments.ts';
import { postComment } from './post-comment.ts';

/**
 * Comments on debates (an extension the spec's comment notification implies). Who may comment: the owner
 * and the members of its workspace; any signed-in user on a public debate, or on one whose share link allows comments. Anonymous readers see
 * the comments of public debates. A private debate otherwise is FORBIDDEN (as votes and polls answer).
 * One operation a file (comment-access.ts: who may read and write them).
 */
export function createComments(resources: CommentResources) {
  return {
    list: listComments(resources),
    post: postComment(resources),
    delete: deleteComment(resources),
  };
}
