import { z } from 'zod';

export const Health = z.object({
  status: z.literal('ok'),
  checks: z.record(z.string(), z.literal('ok')).optional(),
});
export type Health = z.infer<typeof Health>;
