import type { RouteErrors } from '../../trpc/meta.ts';

/** A route on one poll that only the debate's owner may use (create is the same, without a poll). */
export const OWNER_POLL_ERRORS = {
  NOT_FOUND: 'The debate is missing or deleted, or it has no such poll',
  FORBIDDEN: "Not the debate's owner (a public debate of another account, or a private one)",
} as const satisfies RouteErrors;
