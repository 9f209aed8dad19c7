import { describe, expect, it } from 'vitest';
import { SSO_REFUSALS } from './contracts.ts';
import { ssoRefusalMessage, ssoStartPath, UNKNOWN_SSO_REFUSAL } from './sso-refusal.ts';

describe('the sign-in page’s single sign-on refusal', () => {
  it('says the contract’s words for every reason it names', () => {
    for (const [reason, message] of Object.entries(SSO_REFUSALS)) {
      expect(ssoRefusalMessage(reason)).toBe(message);
    }
  });

  it('says a generic line for a reason it does not name, an inherited property included', () => {
    for (const reason of ['', 'no_such_reason', 'toString', '__proto__', 'constructor']) {
      expect(ssoRefusalMessage(reason)).toBe(UNKNOWN_SSO_REFUSAL);
    }
  });

  it('starts at the workspace’s sign-in route with the path to come back to', () => {
    expect(ssoStartPath('acme', '/debates?page=2')).toBe('/api/auth/sso/acme?returnTo=%2Fdebates%3Fpage%3D2');
  });
});
