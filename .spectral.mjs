// Spectral ruleset of `npm run lint:api`: the OpenAPI ruleset and the OWASP API Security Top 10 ruleset,
// with each rule that does not fit this API narrowed or waived below, and the reason next to it.

import { schema } from '@stoplight/spectral-functions';
import owasp from '@stoplight/spectral-owasp-ruleset';
import { oas } from '@stoplight/spectral-rulesets';

/** Every schema a client sends: request bodies (with what they refer to) and parameters. */
const REQUEST_SCHEMAS = ['$.paths[*][*].requestBody..schema', '$.paths[*][*].parameters[*].schema'];
const within = (type) => REQUEST_SCHEMAS.map((path) => `${path}..[?(@ && @.type=="${type}")]`);
const requires = (...alternatives) => ({
  function: schema,
  functionOptions: {
    schema: { type: 'object', anyOf: alternatives.map((field) => ({ required: [field] })) },
  },
});

/** The sign-in routes and the health checks: how a caller gets credentials, and what load balancers poll. */
const UNAUTHENTICATED = [
  'openapi.json#/paths/~1api~1auth~1register',
  'openapi.json#/paths/~1api~1auth~1login',
  'openapi.json#/paths/~1api~1auth~1logout',
  'openapi.json#/paths/~1api~1auth~1session',
  'openapi.json#/paths/~1api~1auth~1state',
  'openapi.json#/paths/~1health',
  'openapi.json#/paths/~1ready',
  'openapi.json#/paths/~1v1~1health',
  // Single sign-on: a browser's way in through its workspace's provider, whose answer is the credential.
  'openapi.json#/paths/~1api~1auth~1sso~1%7Bslug%7D',
  'openapi.json#/paths/~1api~1auth~1sso~1%7Bslug%7D~1oidc~1callback',
  'openapi.json#/paths/~1api~1auth~1sso~1%7Bslug%7D~1saml~1acs',
  'openapi.json#/paths/~1api~1auth~1sso~1%7Bslug%7D~1saml~1metadata',
];

/** Capability links: a random token in the URL is the credential, by the specification's design. */
const SHARE_LINK = 'openapi.json#/paths/~1api~1public~1debates~1%7Btoken%7D';
const UNSUBSCRIBE_LINK = 'openapi.json#/paths/~1api~1unsubscribe';

/** Called by Stripe, not by clients: the signature of the body is its credential. */
const STRIPE_WEBHOOK = 'openapi.json#/paths/~1api~1billing~1webhook';

export default {
  extends: [oas, owasp],
  rules: {
    // Size limits protect the server from what it receives. The OWASP rules ask them of every schema,
    // responses included; here they are enforced on everything a client sends, and waived on what the
    // server sends (a verdict's narrative, a page of debates), whose size the server itself controls.
    'owasp:api4:2023-string-limit': 'off',
    'owasp:api4:2023-array-limit': 'off',
    'owasp:api4:2023-string-restricted': 'off',
    // A route that takes no input cannot fail validation, and the document lists no error a route cannot
    // return; every route that takes input documents its 400.
    'owasp:api8:2023-define-error-validation': 'off',
    'verdict:request-string-limit': {
      description: 'A string a client sends has maxLength, enum, const or a format that bounds it.',
      severity: 'error',
      given: within('string'),
      then: requires('maxLength', 'enum', 'const', 'format'),
    },
    'verdict:request-array-limit': {
      description: 'An array a client sends has maxItems.',
      severity: 'error',
      given: within('array'),
      then: requires('maxItems'),
    },
  },
  overrides: [
    {
      files: UNAUTHENTICATED,
      rules: {
        // Signing up or in is how a caller gets credentials; signing out needs none (it is idempotent).
        'owasp:api2:2023-write-restricted': 'off',
        'owasp:api2:2023-read-restricted': 'off',
        // Not counted against a request budget: sign-in failures are limited per email and IP (429 with
        // Retry-After), sign-ups per IP (with X-RateLimit-*); health checks are for load balancers.
        'owasp:api4:2023-rate-limit': 'off',
        'owasp:api4:2023-rate-limit-responses-429': 'off',
        // Nothing to authenticate, so nothing to refuse with 401.
        'owasp:api8:2023-define-error-responses-401': 'off',
      },
    },
    {
      files: [SHARE_LINK],
      rules: {
        // The link token is the credential of a share link (spec): 256 random bits, stored hashed, rotated or
        // revoked by the owner, and reads are limited per client IP. Its CORS preflight (OPTIONS) is answered
        // before any limit; the GET documents its X-RateLimit-* headers and 429.
        'owasp:api2:2023-no-credentials-in-url': 'off',
        'owasp:api4:2023-rate-limit': 'off',
      },
    },
    {
      files: [UNSUBSCRIBE_LINK],
      rules: {
        // The emailed link carries its HMAC (spec); it can only turn one kind of email off, costs one HMAC
        // to check, and answers HTML to the person who clicked it.
        'owasp:api2:2023-no-credentials-in-url': 'off',
        'owasp:api4:2023-rate-limit': 'off',
        'owasp:api4:2023-rate-limit-responses-429': 'off',
        'owasp:api8:2023-define-error-responses-401': 'off',
      },
    },
    {
      files: [STRIPE_WEBHOOK],
      rules: {
        // Stripe authenticates each event with an HMAC of the raw body (Stripe-Signature, refused with 400
        // when wrong), not with a security scheme; it is not counted against a request budget, since Stripe
        // retries what it cannot deliver and each event costs one signature check before anything else.
        'owasp:api2:2023-write-restricted': 'off',
        'owasp:api4:2023-rate-limit': 'off',
        'owasp:api4:2023-rate-limit-responses-429': 'off',
        'owasp:api8:2023-define-error-responses-401': 'off',
      },
    },
  ],
};
