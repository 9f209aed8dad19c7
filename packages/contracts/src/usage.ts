import { z } from 'zod';

/**
 * The endpoint under which a keyed request to no known route is counted: one bucket, so requests to
 * arbitrary paths cannot grow a key's usage without bound.
 */
export const UNMATCHED_ENDPOINT = '(unmatched)';

/**
 * GET /v1/usage: the calling key's requests in the current UTC month.
 *
 * @example
 * { keyId: '…', period: '2026-11-01', totalRequests: 3, byEndpoint: { '/v1/me': 2, '/v1/usage': 1 }, rateLimit: 60 }
 */
export const Usage = z
  .object({
    keyId: z.uuid().meta({ description: 'The calling key (its id, not its value)' }),
    period: z.iso
      .date()
      .meta({ description: 'First day of the current UTC month (YYYY-MM-01): counts are of this month' }),
    totalRequests: z
      .number()
      .int()
      .min(0)
      .meta({ description: 'Every request made with the key this month, refused ones (4xx, 429) included' }),
    byEndpoint: z.record(z.string(), z.number().int().min(0)).meta({
      description:
        'Requests per route template (`/v1/verdicts/:id`, not the raw path); tRPC calls under `/trpc/<procedure>`, ' +
        `requests to no known route under \`${UNMATCHED_ENDPOINT}\`. The counts add up to totalRequests`,
    }),
    rateLimit: z.number().int().min(1).meta({
      description: "The key's per-minute request limit: its own rateLimit if set, else the account's",
    }),
  })
  .meta({ id: 'Usage' });
export type Usage = z.infer<typeof Usage>;
