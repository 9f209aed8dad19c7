import { SSO_REFUSALS } from '@verdict/contracts';
import { headerRefs } from './components.ts';
import { errorResponses } from './responses.ts';

const SLUG = {
  name: 'slug',
  in: 'path',
  required: true,
  description: "The workspace's slug",
  schema: { type: 'string', minLength: 2, maxLength: 48, pattern: '^[a-z0-9-]+$' },
};

const LOCATION = {
  Location: { description: 'Where the browser goes next', schema: { type: 'string' } },
};

const REFUSALS = Object.keys(SSO_REFUSALS).join(', ');

/** A redirect answer: where to, and why. */
const redirect = (status: '302' | '303', description: string) => ({
  [status]: { description, headers: { ...headerRefs([]), ...LOCATION } },
});

const refusedToSignIn = redirect(
  '303',
  'Signed in: the session cookie is set and the browser goes where the sign-in was headed (returnTo, within ' +
    'the console). Refused: the browser goes to the sign-in page with `?sso_error=<reason>` (one of ' +
    `${REFUSALS}), and the refusal is recorded in the workspace's audit trail.`,
);

const PATH_INVALID = [
  'VALIDATION_ERROR',
  'The request path is not valid (a malformed percent-encoding)',
] as const;
const INTERNAL = ['INTERNAL_ERROR', 'Unexpected failure; the message carries no internals'] as const;
const unexpected = errorResponses(new Map([PATH_INVALID, INTERNAL]), []);

const EXTENSION = '**Extension**: not named by the interface specification.';

/** GET /api/auth/sso/{slug}: a sign-in starts. */
const startOperation = () => ({
  operationId: 'sso-start',
  summary: "Sign in through a workspace's identity provider (a browser navigation)",
  description: [
    EXTENSION,
    "Redirects to the workspace's provider (OIDC authorization request with PKCE, state and nonce; or a SAML",
    'AuthnRequest, HTTP-Redirect binding), and sets a short-lived cookie that ties the answer to this browser.',
    'Signed in already, the account may be linked to the provider by completing the sign-in.',
  ].join(' '),
  tags: ['sso'],
  security: [],
  'x-extension': true,
  parameters: [
    SLUG,
    {
      name: 'returnTo',
      in: 'query',
      required: false,
      description: 'A path of the console to go to once signed in (default: the console start)',
      schema: { type: 'string', maxLength: 2000, pattern: '^/([^/\\\\\\s][^\\s\\\\]*)?$' },
    },
  ],
  responses: {
    ...redirect('302', "To the workspace's provider"),
    ...redirect(
      '303',
      'To the sign-in page with `?sso_error=not_configured` (no single sign-on for this slug, or its plan lost it) or `?sso_error=provider_error` (the provider cannot be reached)',
    ),
    ...unexpected,
  },
});

/** GET /api/auth/sso/{slug}/oidc/callback: the OIDC provider's answer. */
const oidcCallbackOperation = () => ({
  operationId: 'sso-oidc-callback',
  summary: "The OIDC provider's answer (its redirect URI)",
  description: [
    EXTENSION,
    'The code is redeemed with the PKCE verifier and the ID token verified (signature by the provider keys,',
    'issuer, audience, expiry, nonce); the state must name a sign-in started in this browser, unused. The',
    'email must be verified by the provider and of the allowed domains.',
  ].join(' '),
  tags: ['sso'],
  security: [],
  'x-extension': true,
  parameters: [
    SLUG,
    { name: 'code', in: 'query', required: false, schema: { type: 'string', maxLength: 4000 } },
    { name: 'state', in: 'query', required: false, schema: { type: 'string', maxLength: 200 } },
    { name: 'error', in: 'query', required: false, schema: { type: 'string', maxLength: 200 } },
  ],
  responses: { ...refusedToSignIn, ...unexpected },
});

/** POST /api/auth/sso/{slug}/saml/acs: the SAML provider's answer. */
const samlAcsOperation = () => ({
  operationId: 'sso-saml-acs',
  summary: "The SAML provider's answer (assertion consumer service, HTTP-POST binding)",
  description: [
    EXTENSION,
    "The assertion must be signed by the provider's certificate, name this workspace's entity id as its",
    'audience and its ACS as the recipient, be within its time window, and answer a sign-in started in',
    'this browser, unused (RelayState). Posted by the browser from the provider site: exempt from the CSRF',
    'guard, which its own checks replace.',
  ].join(' '),
  tags: ['sso'],
  security: [],
  'x-extension': true,
  parameters: [SLUG],
  requestBody: {
    required: true,
    content: {
      'application/x-www-form-urlencoded': {
        schema: {
          type: 'object',
          properties: {
            SAMLResponse: {
              type: 'string',
              maxLength: 1_000_000,
              description: 'The base64 samlp:Response',
            },
            RelayState: { type: 'string', maxLength: 200, description: 'The sign-in it answers' },
          },
        },
      },
    },
  },
  responses: {
    ...refusedToSignIn,
    ...errorResponses(
      new Map([
        PATH_INVALID,
        ['PAYLOAD_TOO_LARGE', 'Body larger than the server accepts'],
        ['UNSUPPORTED_MEDIA_TYPE', 'A body that is not a form'],
        INTERNAL,
      ]),
      [],
    ),
  },
});

/** GET /api/auth/sso/{slug}/saml/metadata: this service as the provider must know it. */
const samlMetadataOperation = () => ({
  operationId: 'sso-saml-metadata',
  summary: "This service's SAML metadata for a workspace (for its provider to read)",
  description: `${EXTENSION} The entity id (also the assertions' audience), the ACS URL (HTTP-POST binding), email NameIDs, signed assertions wanted.`,
  tags: ['sso'],
  security: [],
  'x-extension': true,
  parameters: [SLUG],
  responses: {
    '200': {
      description: 'The SP metadata (an EntityDescriptor)',
      headers: headerRefs([]),
      content: { 'application/samlmetadata+xml': { schema: { type: 'string' } } },
    },
    ...errorResponses(
      new Map([PATH_INVALID, ['NOT_FOUND', 'No workspace with this slug has single sign-on'], INTERNAL]),
      [],
    ),
  },
});

/**
 * Single sign-on's browser routes (plain handlers, http/sso-routes.ts): they answer with redirects and
 * take the SAML provider's form post, so the document describes them by hand.
 */
export const ssoPaths = () => ({
  '/api/auth/sso/{slug}': { get: startOperation() },
  '/api/auth/sso/{slug}/oidc/callback': { get: oidcCallbackOperation() },
  '/api/auth/sso/{slug}/saml/acs': { post: samlAcsOperation() },
  '/api/auth/sso/{slug}/saml/metadata': { get: samlMetadataOperation() },
});
