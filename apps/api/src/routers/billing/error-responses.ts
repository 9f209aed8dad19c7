import type { RouteErrors } from '../../trpc/meta.ts';

/** What a route that opens a page at the payment processor can fail with beyond its kind's errors. */
export const PAYING_ROUTE_ERRORS = {
  BILLING_NOT_CONFIGURED: 'The server has no payment processor key, or no price for what this route sells',
  SERVICE_UNAVAILABLE: 'The payment processor did not answer or refused the request; try again shortly',
} as const satisfies RouteErrors;

/** What a purchase made for a workspace (body workspaceId) can fail with beyond the paying route's errors. */
export const FOR_WORKSPACE_ERRORS = {
  NOT_FOUND: 'workspaceId names no workspace',
  FORBIDDEN: 'workspaceId names a workspace the caller does not own (only its owner pays for it)',
} as const satisfies RouteErrors;

/** What a subscription checkout can fail with beyond the paying route's errors. */
export const SUBSCRIBING_ERRORS = {
  CONFLICT:
    'The account already has an active subscription (change it in the billing portal), or is on a plan ' +
    'the operator set (starter, pro, enterprise)',
} as const satisfies RouteErrors;
