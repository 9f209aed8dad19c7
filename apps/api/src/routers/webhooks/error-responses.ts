import type { RouteErrors } from '../../trpc/meta.ts';

/** What a route about one webhook answers when it is not the caller's: as if it did not exist. */
export const OWN_WEBHOOK_ERRORS = {
  NOT_FOUND: 'No such webhook, or it belongs to another user',
} as const satisfies RouteErrors;
