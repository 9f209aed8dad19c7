import type { Plan, PlanRequiredError } from '@verdict/sdk';

/** The plans as the pricing page names them. */
const PLAN_NAMES: Record<Plan, string> = {
  free: 'Free',
  starter: 'Starter',
  pro: 'Pro',
  byok: 'BYOK',
  byok_pro: 'BYOK Pro',
  enterprise: 'Enterprise',
};

/** The line under a plan refusal that says what to choose and where: "upgrade to Pro: https://…/pricing". */
export const upgradeHint = (refusal: Pick<PlanRequiredError, 'requiredPlan' | 'upgradeUrl'>) =>
  // A plan newer than this CLI is shown by its id.
  `upgrade to ${PLAN_NAMES[refusal.requiredPlan] ?? refusal.requiredPlan}: ${refusal.upgradeUrl}`;
