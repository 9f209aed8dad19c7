import type { RouteErrors } from '../../trpc/meta.ts';

/** What a route on one debate's outcome answers when there is no record for the caller. */
export const NO_OUTCOME = {
  NOT_FOUND: 'No outcome record: the debate is missing, deleted, not yours, or has not completed',
} as const satisfies RouteErrors;
