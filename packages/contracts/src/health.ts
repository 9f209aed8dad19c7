import { z } from 'zod';

export const Health = z.object({
  status: z.literal('ok'),
  checks: z.record(z.string(), z.literal('ok')).optional(),
});
export type Health = z.infer<typeof Health>;

/** What GET /ready looked at: each dependency, the schema, and whether the process is shutting down. */
export const ReadinessChecks = z
  .object({
    database: z.enum(['ok', 'unavailable']),
    bus: z.enum(['ok', 'unavailable']).meta({ description: 'NATS, or the in-process bus of embedded mode' }),
    migrations: z.enum(['ok', 'pending', 'unknown']).meta({
      description:
        'pending: this version has migrations the database lacks; unknown: the database did not answer',
    }),
    draining: z.boolean().meta({ description: 'The process is shutting down: send it nothing new' }),
  })
  .meta({ id: 'ReadinessChecks' });
export type ReadinessChecks = z.infer<typeof ReadinessChecks>;

export const Readiness = z.object({ status: z.literal('ready'), checks: ReadinessChecks });
export type Readiness = z.infer<typeof Readiness>;
