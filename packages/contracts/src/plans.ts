import { z } from 'zod';

/** Account plans, as seen in balance and profile responses. */
export const Plan = z.enum(['free', 'starter', 'pro', 'byok', 'byok_pro', 'enterprise']);
export type Plan = z.infer<typeof Plan>;

/** Capabilities a plan may or may not include; each is checked by the gate in core/billing/plan-gates.ts. */
export type PlanFeature =
  | 'workspaces'
  | 'attachments'
  | 'argumentGraph'
  | 'evidence'
  | 'auditLogs'
  | 'singleSignOn';

export type PlanTerms = {
  /** Credits a new account starts with (only accounts start on a plan: `free`). */
  signupCredits: number;
  /** Credits granted when the plan's monthly invoice is paid; 0 for plans without a grant. */
  monthlyCredits: number;
  /** Per-key, per-minute request cap when the key sets no `rateLimit` of its own. */
  requestsPerMinute: number;
  /** Debates run on the caller's own provider keys (`X-Provider-Keys` required), never charged credits. */
  ownProviderKeys: boolean;
  /** Runs the free tier's debates of the month once credits are gone (then 429 MONTHLY_LIMIT_REACHED). */
  freeTier: boolean;
  /** People in a workspace owned on this plan, the owner included; null = unlimited. */
  seats: number | null;
  features: Record<PlanFeature, boolean>;
  /**
   * Days audit entries of an account (or of a workspace it owns) on this plan are kept before retention
   * removes them; the operator may set others (AUDIT_RETENTION_DAYS), never under 30. Plans without audit
   * logs keep a month too, so an upgrade shows the weeks before it.
   */
  auditRetentionDays: number;
};

/**
 * Every plan's terms, in one place: signup and monthly credits, rate limit, own keys, seats and gated
 * features. Everything that depends on a plan reads it here. Numbers from the spec's plan table; where the
 * spec says "custom" (Enterprise), the values are those a contract would start from.
 */
export const PLANS: Record<Plan, PlanTerms> = {
  free: {
    signupCredits: 10,
    monthlyCredits: 0,
    requestsPerMinute: 10,
    ownProviderKeys: false,
    freeTier: true,
    seats: 1,
    features: {
      workspaces: false,
      attachments: false,
      argumentGraph: false,
      evidence: false,
      auditLogs: false,
      singleSignOn: false,
    },
    auditRetentionDays: 30,
  },
  starter: {
    signupCredits: 0,
    monthlyCredits: 0,
    requestsPerMinute: 60,
    ownProviderKeys: false,
    freeTier: false,
    seats: 1,
    features: {
      workspaces: false,
      attachments: false,
      argumentGraph: false,
      evidence: false,
      auditLogs: false,
      singleSignOn: false,
    },
    auditRetentionDays: 30,
  },
  pro: {
    signupCredits: 0,
    monthlyCredits: 500,
    requestsPerMinute: 120,
    ownProviderKeys: false,
    freeTier: false,
    seats: 25,
    features: {
      workspaces: false,
      attachments: false,
      argumentGraph: true,
      evidence: true,
      auditLogs: true,
      singleSignOn: false,
    },
    auditRetentionDays: 90,
  },
  byok: {
    signupCredits: 0,
    monthlyCredits: 0,
    requestsPerMinute: 60,
    ownProviderKeys: true,
    freeTier: false,
    seats: 5,
    features: {
      workspaces: false,
      attachments: false,
      argumentGraph: false,
      evidence: false,
      auditLogs: false,
      singleSignOn: false,
    },
    auditRetentionDays: 30,
  },
  byok_pro: {
    signupCredits: 0,
    monthlyCredits: 0,
    requestsPerMinute: 120,
    ownProviderKeys: true,
    freeTier: false,
    seats: 10,
    features: {
      workspaces: true,
      attachments: true,
      argumentGraph: true,
      evidence: true,
      auditLogs: true,
      singleSignOn: false,
    },
    auditRetentionDays: 90,
  },
  enterprise: {
    signupCredits: 0,
    monthlyCredits: 0,
    requestsPerMinute: 60,
    ownProviderKeys: false,
    freeTier: false,
    seats: null,
    features: {
      workspaces: true,
      attachments: true,
      argumentGraph: true,
      evidence: true,
      auditLogs: true,
      singleSignOn: true,
    },
    auditRetentionDays: 365,
  },
};

/** Each plan as people read it (the price table's names): what messages and pages show, never the id. */
export const PLAN_NAMES: Record<Plan, string> = {
  free: 'Free',
  starter: 'Starter',
  pro: 'Pro',
  byok: 'BYOK',
  byok_pro: 'BYOK Pro',
  enterprise: 'Enterprise',
};

/** The cheapest plan that includes a feature: named by a gate that refuses, so the caller knows what to buy. */
export const PLAN_FOR_FEATURE: Record<PlanFeature, Plan> = {
  workspaces: 'byok_pro',
  attachments: 'byok_pro',
  argumentGraph: 'pro',
  evidence: 'pro',
  auditLogs: 'pro',
  singleSignOn: 'enterprise',
};

/** Per-key, per-minute request caps by plan when the key sets no `rateLimit` of its own. */
export const PLAN_RATE_LIMITS: Record<Plan, number> = Object.fromEntries(
  Plan.options.map((plan) => [plan, PLANS[plan].requestsPerMinute]),
) as Record<Plan, number>;

/** Credits a new account starts with. */
export const SIGNUP_CREDITS = PLANS.free.signupCredits;
