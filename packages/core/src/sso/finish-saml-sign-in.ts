import { takeSignIn } from './answered-sign-in.ts';
import { completeSignIn, type ProvenIdentity, type SignedIn } from './complete-sign-in.ts';
import { samlClient } from './saml-client.ts';
import { serviceProviderOf } from './service-provider.ts';
import { messageOf, SsoRefused } from './sign-in-refusal.ts';
import type { SsoResources } from './sso-resources.ts';
import { type SignInTarget, signInTarget } from './workspace-connection.ts';

const EMAIL_ATTRIBUTES = [
  'email',
  'mail',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
];

/**
 * POST /api/auth/sso/:slug/saml/acs: the provider's answer, posted by the browser. RelayState names the
 * sign-in (used once); the browser must be the one that started it; node-saml verifies the assertion's
 * signature against the provider's certificate, its issuer, audience, time window and InResponseTo; this
 * checks what node-saml leaves to its callers, the bearer confirmation's Recipient (and the Destination).
 */
export const finishSamlSignIn =
  (deps: SsoResources) =>
  async (
    slug: string,
    form: { SAMLResponse?: string; RelayState?: string },
    binding: string | undefined,
    onTarget: (t: SignInTarget) => void,
  ): Promise<SignedIn> => {
    const { db, config } = deps;
    const target = await signInTarget(db.em(), slug);
    onTarget(target);
    if (!form.SAMLResponse) throw new SsoRefused('invalid_response', 'no SAMLResponse');
    const request = await takeSignIn(deps, target, form.RelayState ?? null, binding);
    const saml = await samlClient(config.publicBaseUrl, target.slug, target.connection, {
      existing: request.id,
    });
    const xml = Buffer.from(form.SAMLResponse, 'base64').toString('utf8');
    let profile: Awaited<ReturnType<typeof saml.validatePostResponseAsync>>['profile'];
    try {
      ({ profile } = await saml.validatePostResponseAsync({ SAMLResponse: form.SAMLResponse }));
    } catch (error) {
      throw new SsoRefused(samlRefusalOf(error, xml), messageOf(error));
    }
    if (!profile) throw new SsoRefused('invalid_response', 'no assertion');
    checkRecipient(profile, serviceProviderOf(config.publicBaseUrl, target.slug).acsUrl);
    return completeSignIn(deps, target, request, identityOf(profile));
  };

function identityOf(
  profile: Record<string, unknown> & { nameID: string; nameIDFormat: string },
): ProvenIdentity {
  const attribute = EMAIL_ATTRIBUTES.map((name) => profile[name]).find((value) => typeof value === 'string');
  const email =
    (attribute as string | undefined) ??
    (/emailAddress$/.test(profile.nameIDFormat) ? profile.nameID : undefined);
  if (!email || !/^[^@\s]+@[^@\s]+$/.test(email))
    throw new SsoRefused('no_email', 'no email in the assertion');
  const name =
    typeof profile.name === 'string'
      ? profile.name
      : typeof profile.displayName === 'string'
        ? profile.displayName
        : null;
  return { subject: profile.nameID, email, name };
}

/**
 * The bearer confirmation must name this workspace's ACS as its Recipient: an assertion the provider made
 * for another service is not accepted here. node-saml leaves this to its callers; it is read from the
 * assertion node-saml verified (the signed part; a response's Destination is not signed).
 */
function checkRecipient(profile: { getAssertion?: () => Record<string, unknown> }, acsUrl: string): void {
  const assertion = profile.getAssertion?.() as AssertionJs | undefined;
  const recipients = (assertion?.Assertion?.Subject?.[0]?.SubjectConfirmation ?? []).map(
    (confirmation) => confirmation.SubjectConfirmationData?.[0]?.$?.Recipient,
  );
  if (recipients.length === 0 || recipients.some((recipient) => recipient !== acsUrl)) {
    throw new SsoRefused('wrong_recipient', `Recipient ${String(recipients[0]).slice(0, 200)}`);
  }
}

/** The part of node-saml's parsed assertion (xml2js) the recipient check reads. */
type AssertionJs = {
  Assertion?: {
    Subject?: { SubjectConfirmation?: { SubjectConfirmationData?: { $?: { Recipient?: string } }[] }[] }[];
  };
};

/** What node-saml's refusal means for the person, from its words. */
export function samlRefusalOf(error: unknown, xml: string): SsoRefused['reason'] {
  const message = messageOf(error);
  if (/signature/i.test(message)) return /<(\w+:)?Signature[\s>]/.test(xml) ? 'bad_signature' : 'unsigned';
  // node-saml checks the bearer confirmation's window before the conditions': both are the time window.
  if (/expired|not yet valid|too old|No valid subject confirmation/i.test(message)) return 'expired';
  if (/audience/i.test(message)) return 'wrong_audience';
  if (/InResponseTo/i.test(message)) return 'unknown_request';
  if (/Bad status code/i.test(message)) return 'provider_error';
  return 'invalid_response';
}

export type { SignInTarget };
