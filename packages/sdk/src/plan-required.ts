import { isTRPCClientError } from '@trpc/client';
import { type Plan, PlanRequiredError } from './errors.ts';

/** What a plan refusal tells a person: why, the plan that includes the action, and where to choose it. */
export type PlanRequirement = { message: string; requiredPlan: Plan; upgradeUrl: string };

/**
 * The plan refusal (402 BYOK_REQUIRED) an error stands for, from either client: a PlanRequiredError of the
 * REST client, or a tRPC client's error whose `data.appCode` is BYOK_REQUIRED. Null for any other error,
 * so a caller can show the upgrade hint and rethrow the rest.
 *
 * @example
 * try {
 *   await trpc.debates.evidence.query({ id });
 * } catch (error) {
 *   const plan = planRequiredOf(error);
 *   if (!plan) throw error;
 *   console.log(`${plan.message} — ${plan.upgradeUrl}`);
 * }
 */
export function planRequiredOf(error: unknown): PlanRequirement | null {
  if (error instanceof PlanRequiredError) {
    return { message: error.message, requiredPlan: error.requiredPlan, upgradeUrl: error.upgradeUrl };
  }
  if (!isTRPCClientError(error)) return null;
  const data: unknown = error.data;
  if (!data || typeof data !== 'object' || !('appCode' in data) || data.appCode !== 'BYOK_REQUIRED')
    return null;
  const extra = 'extra' in data && data.extra && typeof data.extra === 'object' ? data.extra : {};
  const { requiredPlan, upgradeUrl } = extra as Record<string, unknown>;
  if (typeof requiredPlan !== 'string' || typeof upgradeUrl !== 'string') return null;
  return { message: error.message, requiredPlan: requiredPlan as Plan, upgradeUrl };
}
