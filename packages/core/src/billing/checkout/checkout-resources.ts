import type { EntityManager } from '@mikro-orm/core';
import type { HostedPage } from '@verdict/contracts';
import type { AccountTables } from '../../accounts/tables.ts';
import { query } from '../../db/kysely.ts';
import { AppError } from '../../shared/app-error.ts';
import { notConfigured, type Stripe } from '../stripe/stripe-client.ts';
import type { StripeResources, WithStripe } from '../stripe/stripe-resources.ts';
import type { BillingTables } from '../tables.ts';

/** What checkout is given: the processor's resources and the app's address, where its pages lead back to. */
export type CheckoutResources = StripeResources & { appUrl: string };

/** What checkout's operations run on: its resources and the processor's client, made by createCheckout. */
export type CheckoutRun = WithStripe<CheckoutResources>;

/** Typed queries on billing's tables and the accounts they belong to. */
export const checkoutQuery = (em: EntityManager) => query<BillingTables & AccountTables>(em);

/** The client and the price of what is sold, or 503 BILLING_NOT_CONFIGURED without either. */
export function configured(stripe: Stripe | null, price: string | null, what: string) {
  if (stripe === null) throw notConfigured('no secret key');
  if (price === null) throw notConfigured(`no price for ${what}`);
  return { stripe, price };
}

/** The page the processor opened for the caller; without one, a 503. */
export function hosted(url: string | null): HostedPage {
  if (url === null) throw new AppError('SERVICE_UNAVAILABLE', 'The payment processor gave no page to open');
  return { url };
}

/** Only when there is one: Stripe metadata values are strings, and an absent key says "none". */
export const forWorkspace = (workspaceId: string | null): Record<string, string> =>
  workspaceId === null ? {} : { workspaceId };
