/** The failures every route on one debate can answer with, as documented in OpenAPI. */
export const DEBATE_ROUTE_ERRORS = {
  400: 'Invalid id',
  401: 'Not authenticated',
  404: 'Missing, deleted, or not yours',
  429: 'Rate limited',
} as const;
