import { PLANS, Plan } from '@verdict/contracts';
import { describe, expect, it } from 'vitest';
import { AppError } from '../shared/app-error.ts';
import { assertPlanIncludes, hasSeatFor } from './plan-gates.ts';

describe('plan gates', () => {
  it('let through exactly the plans whose terms include the feature', () => {
    const allowed = Plan.options.filter((plan) => {
      try {
        assertPlanIncludes(plan, 'workspaces', 'https://app.example/pricing');
        return true;
      } catch {
        return false;
      }
    });
    expect(allowed).toEqual(['byok_pro', 'enterprise']);
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
    expect((refusal as AppError).message).toContain('byok');
  });

  it('count seats with the owner included, unlimited for enterprise', () => {
    expect(PLANS.byok_pro.seats).toBe(10);
    expect(hasSeatFor('byok_pro', 9)).toBe(true);
    expect(hasSeatFor('byok_pro', 10)).toBe(false);
    expect(hasSeatFor('enterprise', 100_000)).toBe(true);
  });
});
