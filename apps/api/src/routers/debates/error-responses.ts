import type { RouteErrors } from '../../trpc/meta.ts';

/** What a route on one debate of the caller's answers when that debate is not there for them. */
export const ONE_DEBATE_ERRORS = {
  NOT_FOUND: 'Missing, deleted, or not yours',
} as const satisfies RouteErrors;

/**
 * A route that runs or publishes a debate: its creator may, and so may an admin or the owner of its
 * workspace; another member of that workspace is FORBIDDEN (so is a member who created it, for publishing,
 * while the workspace requires approval); anyone else finds nothing.
 */
export const CONTROL_DEBATE_ERRORS = {
  ...ONE_DEBATE_ERRORS,
  FORBIDDEN: 'A workspace debate the caller may read but not control (or, approval required, not publish)',
} as const satisfies RouteErrors;
