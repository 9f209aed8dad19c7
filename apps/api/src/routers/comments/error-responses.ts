import type { RouteErrors } from '../../trpc/meta.ts';

/** Comments follow who may see the debate: missing is 404, private (not shared for comments) is 403. */
export const COMMENT_ERRORS = {
  NOT_FOUND: 'The debate is missing or deleted',
  FORBIDDEN: 'A private debate of another account that is not shared with comments allowed',
} as const satisfies RouteErrors;
