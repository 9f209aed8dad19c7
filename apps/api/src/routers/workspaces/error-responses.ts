import type { RouteErrors } from '../../trpc/meta.ts';

/** What every route about one workspace may answer: it does not exist, or the caller is not in it. */
export const ONE_WORKSPACE_ERRORS = {
  FORBIDDEN: 'The caller is not a member of the workspace, or their role lacks the right',
  NOT_FOUND: 'No such workspace',
} as const satisfies RouteErrors;
