import type { EntityManager } from '@mikro-orm/core';
import type { Plan } from '@verdict/contracts';
import { sql } from 'kysely';
import { query } from '../db/kysely.ts';
import type { AccountTables } from './tables.ts';
import { User } from './user.entity.ts';

/**
 * The one writer of the `users` row: each change is a named transition in the caller's transaction (`em`).
 * Accounts call the identity and limit transitions; the credit balance moves only through billing/ledger.ts,
 * which writes its ledger row beside it in the same transaction (the balance is the ledger's cached sum).
 */

const k = (em: EntityManager) => query<AccountTables>(em);

export type NewUserRow = {
  id: string;
  email: string;
  name: string;
  passwordHash: string | null;
  plan: Plan;
  at: Date;
};

/**
 * A new account with no credits yet (the ledger opens it in the same transaction). Through the ORM, whose
 * UniqueConstraintViolationException tells the caller that another sign-up took the email first.
 */
export async function insertUser(em: EntityManager, user: NewUserRow): Promise<void> {
  em.create(User, {
    id: user.id,
    email: user.email,
    name: user.name,
    passwordHash: user.passwordHash,
    plan: user.plan,
    creditBalance: 0,
    rateLimitPerMinute: null,
    createdAt: user.at,
  });
  await em.flush();
}

/** The account's plan; false when there is no such account. */
export async function setUserPlan(em: EntityManager, userId: string, plan: Plan): Promise<boolean> {
  const result = await k(em).updateTable('users').set({ plan }).where('id', '=', userId).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The account's own per-minute request limit, or null for its plan's; false when there is no such account. */
export async function setUserRateLimit(
  em: EntityManager,
  userId: string,
  perMinute: number | null,
): Promise<boolean> {
  const result = await k(em)
    .updateTable('users')
    .set({ rate_limit_per_minute: perMinute })
    .where('id', '=', userId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Adds `delta` (negative for a charge) to the cached credit balance; the new balance, or null when there is
 * no such account. For billing/ledger.ts only, which records the move in the same transaction; a balance
 * that would go below zero fails on the table's check constraint.
 */
export async function addToCreditBalance(
  em: EntityManager,
  userId: string,
  delta: number,
): Promise<number | null> {
  const updated = await k(em)
    .updateTable('users')
    .set({ credit_balance: sql<number>`credit_balance + ${delta}` })
    .where('id', '=', userId)
    .returning('credit_balance')
    .executeTakeFirst();
  return updated?.credit_balance ?? null;
}
