import { createAccounts } from '../accounts/accounts.ts';
import { createAuditTrail } from '../audit-trails/audit-trail.ts';
import { createCheckout } from '../billing/checkout.ts';
import { createInvoices } from '../billing/invoices.ts';
import { createBilling, openAccount } from '../billing/ledger.ts';
import { createPlanGates } from '../billing/plan-gates.ts';
import { createStripeWebhooks } from '../billing/stripe/webhook.ts';
import type { Config } from '../config/config.ts';
import { createApiKeys } from '../keys/api-keys.ts';
import { createRateLimits } from '../ratelimit/rate-limits.ts';
import { passwordSignInPolicy } from '../sso/password-sign-in-policy.ts';
import { createSso } from '../sso/sso.ts';
import { createUsage } from '../usage/usage.ts';
import { createWorkspaceMembers } from '../workspaces/workspace-members.ts';
import { createWorkspaces } from '../workspaces/workspaces.ts';
import type { Adapters } from './adapters.ts';

/**
 * Who calls and who pays: accounts and sessions, keys, limits and usage, credits and Stripe, workspaces and
 * their single sign-on, and the audit trails of accounts and workspaces.
 */
export function accountServices({ db, reads, clock, counters, onError }: Adapters, config: Config) {
  const plans = createPlanGates(config.appUrl);
  const rateLimits = createRateLimits({ counters, clock, settings: config.rateLimits });
  const accounts = createAccounts({
    db,
    clock,
    sessionTtlMs: config.sessionTtlMs,
    hooks: { onAccountCreated: openAccount, onPasswordSignIn: passwordSignInPolicy({ clock, config }) },
    signUpBudget: rateLimits.hitRegistration,
    signInAttempts: rateLimits.startLoginAttempt,
  });
  return {
    accounts,
    apiKeys: createApiKeys({ db, clock }),
    rateLimits,
    usage: createUsage({ db, reads, clock, onError }),
    plans,
    billing: createBilling({ db, clock }),
    checkout: createCheckout({ db, clock, billing: config.billing, appUrl: config.appUrl }),
    invoices: createInvoices({ db }),
    stripeWebhooks: createStripeWebhooks({ db, clock, billing: config.billing }),
    workspaces: createWorkspaces({ db, clock, plans }),
    workspaceMembers: createWorkspaceMembers({ db, clock, plans }),
    audit: createAuditTrail({ db, clock, plans }),
    sso: createSso({
      db,
      clock,
      plans,
      config,
      createUser: accounts.createUser,
      issueSession: accounts.issueSession,
    }),
  };
}
