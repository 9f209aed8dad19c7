import type { RouteErrors } from '../../trpc/meta.ts';

/** Who may see a debate's votes: anyone when it is public, only its owner when it is private. */
export const VOTE_READ_ERRORS = {
  NOT_FOUND: 'The debate is missing or deleted',
  FORBIDDEN: 'A private debate of another account (or, signed out, any private debate)',
} as const satisfies RouteErrors;

/** Who may vote: its owner, or any signed-in user when the debate is public. */
export const VOTE_WRITE_ERRORS = {
  NOT_FOUND: 'The debate is missing or deleted',
  FORBIDDEN: 'A private debate of another account',
} as const satisfies RouteErrors;
