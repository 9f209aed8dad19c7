import type { RouteErrors } from '../../trpc/init.ts';

/** What a route on one debate of the caller's answers when that debate is not there for them. */
export const ONE_DEBATE_ERRORS = {
  NOT_FOUND: 'Missing, deleted, or not yours',
} as const satisfies RouteErrors;
