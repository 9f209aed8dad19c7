import type { EntityManager } from '@mikro-orm/core';
import { query } from '../../db/kysely.ts';
import type { Database } from '../../db/orm.ts';
import type { BillingTables } from '../tables.ts';
import type { Stripe } from './stripe-client.ts';

/** A replay of an event handled before answers without asking the processor anything. */
export const handledBefore = async (db: Database, eventId: string) =>
  (await query<BillingTables>(db.em())
    .selectFrom('stripe_events')
    .select('id')
    .where('id', '=', eventId)
    .executeTakeFirst()) !== undefined;

/** Records the event; false when it was recorded before (a replay racing this one). */
export const firstDelivery = async (em: EntityManager, event: Stripe.Event, now: Date) =>
  (await query<BillingTables>(em)
    .insertInto('stripe_events')
    .values({ id: event.id, type: event.type, processed_at: now })
    .onConflict((conflict) => conflict.column('id').doNothing())
    .returning('id')
    .executeTakeFirst()) !== undefined;
