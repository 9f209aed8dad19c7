import type { RouteErrors } from '../../trpc/meta.ts';

/**
 * What a route about one schedule answers when the caller may not: someone else's schedule is FORBIDDEN
 * (the spec's answer for DELETE, applied to reads and changes alike), a missing one NOT_FOUND.
 */
export const OWN_SCHEDULE_ERRORS = {
  FORBIDDEN: 'The scheduled debate belongs to another user',
  NOT_FOUND: 'No such scheduled debate',
} as const satisfies RouteErrors;
