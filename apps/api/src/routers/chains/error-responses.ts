import type { RouteErrors } from '../../trpc/meta.ts';

/** A chain is the owner's alone: someone else's answers as a missing one does, on every route. */
export const OWN_CHAIN_ERRORS = {
  NOT_FOUND: "No such chain of the caller's (missing, or another user's)",
} as const satisfies RouteErrors;
