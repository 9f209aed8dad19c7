import { PLAN_FOR_FEATURE, PLAN_NAMES, PLANS, Plan, type PlanFeature } from '@verdict/contracts';
import { AppError } from '../shared/app-error.ts';

/** What a refusal says the feature is, with the verb that agrees with it. */
const FEATURE_NAMES: Record<PlanFeature, string> = {
  workspaces: 'Workspaces need',
  attachments: 'Attachments need',
  argumentGraph: 'The argument graph heatmap needs',
  evidence: 'The evidence engine needs',
  auditLogs: 'The audit log needs',
  singleSignOn: 'Single sign-on needs',
};

/** "Pro, BYOK Pro or Enterprise": every plan that includes the feature, as a refusal names them. */
const plansWith = (feature: PlanFeature) => {
  const plans = Plan.options.filter((plan) => PLANS[plan].features[feature]).map((plan) => PLAN_NAMES[plan]);
  return plans.length > 1 ? `${plans.slice(0, -1).join(', ')} or ${plans.at(-1)}` : (plans[0] ?? 'another');
};

/**
 * Refuses what the plan does not include: 402 BYOK_REQUIRED naming the plan that does (`requiredPlan`)
 * and where to get it (`upgradeUrl`). Every plan-gated action calls this, reading the one plan table.
 */
export function assertPlanIncludes(
  plan: Plan,
  feature: PlanFeature,
  upgradeUrl: string,
  whose = 'this account',
): void {
  if (PLANS[plan].features[feature]) return;
  const requiredPlan = PLAN_FOR_FEATURE[feature];
  throw new AppError(
    'BYOK_REQUIRED',
    `${FEATURE_NAMES[feature]} the ${plansWith(feature)} plan; ${whose} is on ${PLAN_NAMES[plan]}`,
    { extra: { requiredPlan, upgradeUrl } },
  );
}

/** The gates with the deployment's upgrade page filled in: what procedures and domain code call. */
export function createPlanGates(appUrl: string) {
  const upgradeUrl = `${appUrl}/pricing`;
  return {
    upgradeUrl,
    assertIncludes: (plan: Plan, feature: PlanFeature, whose?: string) =>
      assertPlanIncludes(plan, feature, upgradeUrl, whose),
  };
}

export type PlanGates = ReturnType<typeof createPlanGates>;

/** Whether a workspace owned on `plan` has room for one more person, `members` being there already. */
export const hasSeatFor = (plan: Plan, members: number): boolean => {
  const seats = PLANS[plan].seats;
  return seats === null || members < seats;
};
