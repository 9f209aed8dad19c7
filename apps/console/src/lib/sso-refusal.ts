import { SSO_REFUSALS } from './contracts.ts';

/** What the sign-in page says for an unknown reason: a link from an older or a newer server, or edited. */
export const UNKNOWN_SSO_REFUSAL =
  'Single sign-on did not sign you in. Start again, or sign in with your password.';

/**
 * What the sign-in page says when single sign-on sent the browser back refused (`?sso_error=<reason>`): the
 * contract's words for a reason it names, a generic line for any other.
 */
export function ssoRefusalMessage(reason: string): string {
  return Object.hasOwn(SSO_REFUSALS, reason)
    ? SSO_REFUSALS[reason as keyof typeof SSO_REFUSALS]
    : UNKNOWN_SSO_REFUSAL;
}

/** Where single sign-on starts for a workspace's slug, coming back to `returnTo` (a path of the console). */
export const ssoStartPath = (slug: string, returnTo: string) =>
  `/api/auth/sso/${encodeURIComponent(slug)}?returnTo=${encodeURIComponent(returnTo)}`;
