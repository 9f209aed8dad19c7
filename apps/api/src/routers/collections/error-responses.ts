import type { RouteErrors } from '../../trpc/meta.ts';

/**
 * What a route that changes one collection answers when the caller may not: someone else's collection is
 * FORBIDDEN (public or not: only the owner changes it), a missing one NOT_FOUND.
 */
export const OWN_COLLECTION_ERRORS = {
  FORBIDDEN: 'The collection belongs to another user',
  NOT_FOUND: 'No such collection',
} as const satisfies RouteErrors;
