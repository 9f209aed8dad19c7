import { PLANS, Plan, type PlanFeature } from '@verdict/contracts';
import { describe, expect, it } from 'vitest';
import { AppError } from '../shared/app-error.ts';
import { assertPlanIncludes, hasSeatFor } from './plan-gates.ts';

describe('plan gates', () => {
  const allowedFor = (feature: PlanFeature) =>
    Plan.options.filter((plan) => {
      try {
        assertPlanIncludes(plan, feature, 'https://app.example/pricing');
        return true;
      } catch {
        return false;
      }
    });

  it('let through exactly the plans whose terms include the feature', () => {
    expect(allowedFor('workspaces')).toEqual(['byok_pro', 'enterprise']);
    expect(allowedFor('attachments')).toEqual(['byok_pro', 'enterprise']);
    // The spec's plan table: the argument graph heatmap is Pro, BYOK Pro and Enterprise.
    expect(allowedFor('argumentGraph')).toEqual(['pro', 'byok_pro', 'enterprise']);
  });

  it('name the cheapest plan with the feature, and in the message every plan that has it', () => {
    const refusal = (() => {
      try {
        assertPlanIncludes('byok', 'argumentGraph', 'https://app.example/pricing');
      } catch (error) {
        return error;
      }
    })() as AppError;
    expect(refusal).toMatchObject({ code: 'BYOK_REQUIRED', extra: { requiredPlan: 'pro' } });
    expect(refusal.message).toBe(
      'The argument graph heatmap needs the Pro, BYOK Pro or Enterprise plan; this account is on BYOK',
    );
  });

  it('refuse with 402 BYOK_REQUIRED naming the plan to buy and where', () => {
    const refusal = (() => {
      try {
        assertPlanIncludes('byok', 'attachments', 'https://app.example/pricing');
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({
      code: 'BYOK_REQUIRED',
      extra: { requiredPlan: 'byok_pro', upgradeUrl: 'https://app.example/pricing' },
    });
    // The plans by the names people know, never their ids.
    expect((refusal as AppError).message).toBe(
      'Attachments need the BYOK Pro or Enterprise plan; this account is on BYOK',
    );
  });

  it('count seats with the owner included, unlimited for enterprise', () => {
    expect(PLANS.byok_pro.seats).toBe(10);
    expect(hasSeatFor('byok_pro', 9)).toBe(true);
    expect(hasSeatFor('byok_pro', 10)).toBe(false);
    expect(hasSeatFor('enterprise', 100_000)).toBe(true);
  });
});
