import { z } from 'zod';

/** Account plans, as seen in balance and profile responses. */
export const Plan = z.enum(['free', 'starter', 'pro', 'byok', 'byok_pro', 'enterprise']);
export type Plan = z.infer<typeof Plan>;

/** Per-key, per-minute request caps by plan when the key sets no `rateLimit` of its own. */
export const PLAN_RATE_LIMITS: Record<Plan, number> = {
  free: 10,
  starter: 60,
  byok: 60,
  pro: 120,
  byok_pro: 120,
  enterprise: 60,
};

/** Credits a new account starts with. */
export const SIGNUP_CREDITS = 10;
