import { type FundingSource, PLANS, Plan } from '@verdict/contracts';
import { noteLimitRefusal } from '../ratelimit/refusals.ts';
import { AppError } from '../shared/app-error.ts';

/** The first plan (in the table's order, cheapest first) that runs debates on the caller's own keys. */
const OWN_KEYS_PLAN = Plan.options.find((plan) => PLANS[plan].ownProviderKeys);

/** /v1 reports missing credits as 402 INSUFFICIENT_CREDITS, /api as 429 QUOTA_EXCEEDED. */
export type FundingRoute = 'api' | 'v1';

export type FundingRequest = {
  plan: Plan;
  balance: number;
  /** Credits the debate costs on hosted keys. */
  credits: number;
  hasProviderKeys: boolean;
  /**
   * The free tier may pay for it (a new debate); null when it may not (a retry of a debate that was paid
   * for). `used` counts this UTC month's free-tier debates of the account.
   */
  freeTier: { used: number; monthly: number } | null;
  route: FundingRoute;
  upgradeUrl: string;
  /** An estimate asking what would happen: its refusals are not counted as refusals of the limits. */
  quiet?: boolean;
};

export type Funding = { source: FundingSource; charge: number };

/**
 * Who pays for a debate:
 * - BYOK plans always run on the caller's own provider keys (`X-Provider-Keys` required), never charged.
 * - Other plans pay in credits when the balance covers the mode.
 * - A free-plan account without enough credits gets the free tier's debates of the month (a lighter judge),
 *   then 429 MONTHLY_LIMIT_REACHED — for a new debate; a retry of a paid one is paid for again.
 * - Anyone else without enough credits: 429 QUOTA_EXCEEDED (/api) or 402 INSUFFICIENT_CREDITS (/v1).
 */
export function chooseFunding(request: FundingRequest): Funding {
  if (PLANS[request.plan].ownProviderKeys) {
    if (!request.hasProviderKeys) {
      throw new AppError('VALIDATION_ERROR', 'BYOK plans send their provider keys in X-Provider-Keys', {
        details: [{ path: 'X-Provider-Keys', message: 'required on BYOK plans', code: 'missing_header' }],
      });
    }
    return { source: 'byok', charge: 0 };
  }
  if (request.hasProviderKeys) {
    throw new AppError('BYOK_REQUIRED', 'Running on your own provider keys needs a BYOK plan', {
      extra: { requiredPlan: OWN_KEYS_PLAN, upgradeUrl: request.upgradeUrl },
    });
  }
  if (request.balance >= request.credits) return { source: 'user_credits', charge: request.credits };
  if (PLANS[request.plan].freeTier && request.freeTier) {
    const { used, monthly } = request.freeTier;
    if (used < monthly) return { source: 'free_tier', charge: 0 };
    if (!request.quiet) noteLimitRefusal('monthlyDebates');
    throw new AppError('MONTHLY_LIMIT_REACHED', 'The free plan\u2019s monthly debates are used up', {
      extra: { limit: monthly, upgradeUrl: request.upgradeUrl },
    });
  }
  const extra = { required: request.credits, balance: request.balance };
  if (request.route !== 'v1' && !request.quiet) noteLimitRefusal('credits');
  throw request.route === 'v1'
    ? new AppError('INSUFFICIENT_CREDITS', `This debate needs ${request.credits} credits`, { extra })
    : new AppError('QUOTA_EXCEEDED', `This debate needs ${request.credits} credits`, { extra });
}
