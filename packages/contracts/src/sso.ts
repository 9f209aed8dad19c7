import { z } from 'zod';
import { UuidInput } from './ids.ts';
import { AssignableWorkspaceRole } from './workspaces.ts';

/** How a workspace's people sign in through their identity provider. */
export const SsoProtocol = z.enum(['oidc', 'saml']);
export type SsoProtocol = z.infer<typeof SsoProtocol>;

/** A domain as an email's part after the @: labels of letters, digits and hyphens, kept in lower case. */
const EmailDomain = z
  .string()
  .max(253)
  .regex(
    /^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/,
    'a domain such as example.com',
  )
  .toLowerCase();

/** What every connection sets, whatever its protocol. */
const ConnectionTerms = {
  allowedDomains: z
    .array(EmailDomain)
    .min(1)
    .max(50)
    .meta({
      description:
        'Email domains the provider may sign people in for: a sign-in for an address elsewhere is refused, and ' +
        'only people of these domains are held to requireSso',
    }),
  defaultRole: AssignableWorkspaceRole.default('member').meta({
    description: 'The role someone signing in for the first time joins the workspace with',
  }),
  requireSso: z.boolean().default(false).meta({
    description:
      "Refuse password sign-in to the workspace's members of the allowed domains (the owner keeps it, audited)",
  }),
};

/**
 * The fields of a connection, both protocols' in one object (a REST body has one shape): OIDC takes issuer,
 * clientId and clientSecret; SAML takes metadataXml, or entityId, ssoUrl and certificate. Each protocol's
 * fields are refused with the other (connectionFields).
 */
const ConnectionFields = {
  protocol: SsoProtocol,
  issuer: z
    .url({ protocol: /^https?$/ })
    .max(2000)
    .optional()
    .meta({
      description:
        "OIDC (required): the provider's issuer identifier; its discovery document is read from it",
    }),
  clientId: z.string().min(1).max(500).optional().meta({ description: 'OIDC (required): the client id' }),
  clientSecret: z.string().min(1).max(2000).optional().meta({
    description:
      'OIDC: the client secret, stored encrypted and never shown again; left out on an update of the same client: kept; none at all: a public client (PKCE only)',
  }),
  metadataXml: z.string().min(1).max(200_000).optional().meta({
    description:
      "SAML: the provider's metadata (an EntityDescriptor): its entity id, SSO URL and signing certificate",
  }),
  entityId: z
    .string()
    .min(1)
    .max(2000)
    .optional()
    .meta({ description: "SAML: the provider's entity id (issuer)" }),
  ssoUrl: z
    .url({ protocol: /^https?$/ })
    .max(2000)
    .optional()
    .meta({
      description: "SAML: the provider's single sign-on URL (HTTP-Redirect binding)",
    }),
  certificate: z.string().min(1).max(20_000).optional().meta({
    description: "SAML: the provider's signing certificate (PEM, or its base64 body)",
  }),
  ...ConnectionTerms,
};

const OIDC_ONLY = ['issuer', 'clientId', 'clientSecret'] as const;
const SAML_ONLY = ['metadataXml', 'entityId', 'ssoUrl', 'certificate'] as const;

/** Each protocol's own fields, and none of the other's. */
const connectionFields = (value: Record<string, unknown>, ctx: z.RefinementCtx) => {
  const oidc = value.protocol === 'oidc';
  for (const name of oidc ? SAML_ONLY : OIDC_ONLY) {
    if (value[name] !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: [name],
        message: `Not a field of a${oidc ? 'n OIDC' : ' SAML'} connection`,
      });
    }
  }
  if (oidc) {
    for (const name of ['issuer', 'clientId'] as const) {
      if (value[name] === undefined)
        ctx.addIssue({ code: 'custom', path: [name], message: 'Required for OIDC' });
    }
  }
};

/** PUT /api/workspaces/:id/sso: the workspace's one connection, created or replaced. */
export const SsoConnectionInput = z.strictObject(ConnectionFields).superRefine(connectionFields);
export type SsoConnectionInput = z.infer<typeof SsoConnectionInput>;

export const PutSsoConnectionInput = z
  .strictObject({ id: UuidInput, ...ConnectionFields })
  .superRefine(connectionFields);

/** Where the identity provider sends people back, and what it must be told about this service. */
export const SsoServiceProvider = z.object({
  signInUrl: z.string().meta({ description: 'Start a sign-in here (the console links to it)' }),
  redirectUri: z.string().meta({ description: 'OIDC: the redirect URI to register with the provider' }),
  acsUrl: z.string().meta({ description: 'SAML: the assertion consumer service URL (HTTP-POST binding)' }),
  entityId: z.string().meta({ description: "SAML: this service's entity id, the assertions' audience" }),
  metadataUrl: z.string().meta({ description: "SAML: this service's metadata" }),
});

/** A workspace's connection as its owner and admins read it: never the client secret, only whether one is set. */
export const SsoConnection = z
  .object({
    workspaceId: z.string(),
    protocol: SsoProtocol,
    issuer: z.string().meta({ description: 'OIDC: the issuer; SAML: the provider entity id' }),
    clientId: z.string().nullable(),
    hasClientSecret: z.boolean(),
    ssoUrl: z.string().nullable().meta({ description: "SAML: the provider's single sign-on URL" }),
    certificateFingerprint: z.string().nullable().meta({
      description: "SAML: SHA-256 fingerprint of the provider's signing certificate (hex, colon-separated)",
    }),
    allowedDomains: z.array(z.string()),
    defaultRole: AssignableWorkspaceRole,
    requireSso: z.boolean(),
    serviceProvider: SsoServiceProvider,
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'SsoConnection' });
export type SsoConnection = z.infer<typeof SsoConnection>;

/** POST /api/workspaces/:id/sso/deprovision: someone who left, named as the provider knows them. */
export const DeprovisionInput = z.strictObject({
  id: UuidInput,
  email: z.email().max(320).toLowerCase(),
});

export const DeprovisionResult = z
  .object({
    userId: z.string().nullable().meta({ description: 'The account the email names, null when none does' }),
    removedFromWorkspace: z.boolean(),
    sessionsEnded: z
      .number()
      .int()
      .meta({ description: "Sessions this workspace's sign-in had opened, ended" }),
  })
  .meta({ id: 'DeprovisionResult' });
export type DeprovisionResult = z.infer<typeof DeprovisionResult>;

/**
 * Why a single sign-on was refused: the code the sign-in page is sent back with (`?sso_error=`), the audit
 * entry's reason, and what the page says.
 */
export const SSO_REFUSALS = {
  not_configured: 'This workspace has no single sign-on set up, or its plan no longer includes it.',
  unknown_request: 'This sign-in expired or was already used. Start again from the sign-in page.',
  other_browser: 'This sign-in was started in another browser. Start again from the sign-in page.',
  replayed: 'This sign-in response was already used. Start again from the sign-in page.',
  bad_signature: "The identity provider's response is not signed by the provider this workspace trusts.",
  unsigned: "The identity provider's response carries no signature.",
  expired: "The identity provider's response has expired (or the clocks disagree).",
  wrong_audience: "The identity provider's response was meant for another service.",
  wrong_recipient: "The identity provider's response was sent for another address.",
  wrong_nonce: "The identity provider's response does not belong to this sign-in.",
  provider_error: 'The identity provider refused the sign-in or could not be reached.',
  invalid_response: "The identity provider's response could not be read.",
  no_email: 'The identity provider did not give a verified email address.',
  domain_not_allowed: "Your email's domain is not one this workspace signs in.",
  account_exists:
    'An account with this email already exists. Sign in with your password first, then use single sign-on to link it.',
  no_seat: "Every seat of this workspace's plan is taken.",
} as const;
export type SsoRefusal = keyof typeof SSO_REFUSALS;
export const SsoRefusal = z.enum(Object.keys(SSO_REFUSALS) as [SsoRefusal, ...SsoRefusal[]]);
