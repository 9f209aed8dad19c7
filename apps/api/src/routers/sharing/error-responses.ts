import type { RouteErrors } from '../../trpc/meta.ts';

/** A share route on a debate that is not the caller's (or gone): the spec's 404 for a missing debate. */
export const SHARE_DEBATE_ERRORS = {
  NOT_FOUND: 'Missing, deleted, or not yours',
  FORBIDDEN:
    'A workspace debate the caller may read but not share (its creator, admins and the owner may; only ' +
    'admins and the owner while the workspace requires approval)',
} as const satisfies RouteErrors;

/** A share route that needs the link to exist. */
export const SHARE_LINK_ERRORS = {
  NOT_FOUND: 'Missing, deleted, or not yours; or the debate is not shared',
  FORBIDDEN: SHARE_DEBATE_ERRORS.FORBIDDEN,
} as const satisfies RouteErrors;
