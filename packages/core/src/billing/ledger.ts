import type { EntityManager } from '@mikro-orm/core';
import { SIGNUP_CREDITS, unspokenRoundsRefund } from '@verdict/contracts';
import { sql } from 'kysely';
import type { AccountTables } from '../accounts/tables.ts';
import { addToCreditBalance } from '../accounts/user-record.ts';
import { query } from '../db/kysely.ts';
import type { CoreResources } from '../resources.ts';
import { AppError } from '../shared/app-error.ts';
import { recordCreditGrant } from './record-credit-grant.ts';
import type { BillingTables } from './tables.ts';

type Tables = BillingTables & AccountTables;

/**
 * Why credits moved: a grant, the signup allowance, a debate's charge, its refund, a credit pack bought, or
 * a plan's monthly credits.
 */
export type LedgerReason = 'signup' | 'grant' | 'debate' | 'refund' | 'purchase' | 'monthly_grant';

/**
 * Every movement of credits, always both halves in the caller's transaction: `users.credit_balance` (the
 * cached balance, which a check constraint keeps at or above zero) and an append-only `credit_ledger` row.
 * The one place credits change but one: a new debate's charge, both halves the same, is taken inside
 * `open_debate` (migration 0037, debates/creation/open-debate.ts), the statement that writes the debate.
 */
async function move(
  em: EntityManager,
  entry: {
    userId: string;
    delta: number;
    reason: LedgerReason;
    note: string | null;
    debateId: string | null;
    at: Date;
  },
): Promise<number | null> {
  const balance = await addToCreditBalance(em, entry.userId, entry.delta);
  if (balance === null) return null;
  await query<Tables>(em)
    .insertInto('credit_ledger')
    .values({
      id: sql`gen_random_uuid()`,
      user_id: entry.userId,
      delta: entry.delta,
      reason: entry.reason,
      note: entry.note,
      debate_id: entry.debateId,
      reference: null,
      created_at: entry.at,
    })
    .execute();
  return balance;
}

/** A new account's first credits, in the transaction that creates it. */
export const openAccount = (em: EntityManager, userId: string, at: Date) =>
  move(em, { userId, delta: SIGNUP_CREDITS, reason: 'signup', note: null, debateId: null, at });

/** Takes a debate's credits, in the transaction that writes (or restarts) the debate. */
export const debitDebate = (
  em: EntityManager,
  debit: { ownerId: string; credits: number; debateId: string; note: string; at: Date },
) =>
  move(em, {
    userId: debit.ownerId,
    delta: -debit.credits,
    reason: 'debate',
    note: debit.note,
    debateId: debit.debateId,
    at: debit.at,
  });

/** What a debate's attempts were charged, net of refunds: 0 for one that was never charged. */
export async function chargedFor(em: EntityManager, debateId: string): Promise<number> {
  const row = await query<Tables>(em)
    .selectFrom('credit_ledger')
    .select(sql<number>`coalesce(-sum(delta), 0)::int`.as('charged'))
    .where('debate_id', '=', debateId)
    .executeTakeFirst();
  return row?.charged ?? 0;
}

/**
 * Locks, in id order, the accounts a refund of the debate would credit: a transaction that refunds a debate
 * takes them before it locks the debate's row (ARCHITECTURE.md, "Lock order"). `for no key update` is the
 * lock the balance update takes anyway; it does not hold up inserts that merely reference the account.
 */
export async function lockChargedAccounts(em: EntityManager, debateId: string): Promise<void> {
  await query<Tables>(em)
    .selectFrom('users')
    .select('id')
    .where(
      'id',
      'in',
      query<Tables>(em).selectFrom('credit_ledger').select('user_id').where('debate_id', '=', debateId),
    )
    .orderBy('id')
    .forNoKeyUpdate()
    .execute();
}

/**
 * Gives back what a debate was charged and not yet refunded, in the transaction that records its failure:
 * a second call finds nothing left to refund. Each account gets back its own net charge: a debate moved
 * into or out of a workspace and retried there was paid by two accounts.
 */
export async function refundDebate(em: EntityManager, debateId: string, at: Date) {
  const charges = await query<Tables>(em)
    .selectFrom('credit_ledger')
    .select(['user_id', sql<number>`-sum(delta)::int`.as('charged')])
    .where('debate_id', '=', debateId)
    .groupBy('user_id')
    .having(sql<number>`sum(delta)`, '<', 0)
    .orderBy('user_id')
    .execute();
  for (const charge of charges) {
    await move(em, {
      userId: charge.user_id,
      delta: charge.charged,
      reason: 'refund',
      note: 'debate failed: provider error',
      debateId,
      at,
    });
  }
}

/**
 * Gives back the share of a debate's charge its unspoken rounds stood for, when it stopped early because its
 * agents converged: each account that paid gets back ⌊its net charge × skipped / planned⌋ (the judge and the
 * rounds that ran are paid for; rounding is the payer's loss of at most one credit, never the ledger's). In
 * the transaction that stores the debate's final state, after `lockChargedAccounts`. Returns the credits
 * refunded.
 */
export async function refundUnspokenRounds(
  em: EntityManager,
  debateId: string,
  rounds: { spoken: number; planned: number },
  at: Date,
): Promise<number> {
  const skipped = rounds.planned - rounds.spoken;
  if (skipped <= 0 || rounds.planned <= 0) return 0;
  const charges = await query<Tables>(em)
    .selectFrom('credit_ledger')
    .select(['user_id', sql<number>`-sum(delta)::int`.as('charged')])
    .where('debate_id', '=', debateId)
    .groupBy('user_id')
    .having(sql<number>`sum(delta)`, '<', 0)
    .orderBy('user_id')
    .execute();
  let refunded = 0;
  for (const charge of charges) {
    const credits = unspokenRoundsRefund(charge.charged, rounds);
    if (credits <= 0) continue;
    await move(em, {
      userId: charge.user_id,
      delta: credits,
      reason: 'refund',
      note: `debate stopped early: ${skipped} of ${rounds.planned} rounds not spoken`,
      debateId,
      at,
    });
    refunded += credits;
  }
  return refunded;
}

/**
 * Credits paid for (a pack, a plan's month), at most once per `reference` (the checkout session, the
 * invoice): the ledger row goes first and its unique reference decides, so a replayed or concurrent payment
 * event adds nothing. In the caller's transaction; true when the credits were added now.
 */
export async function creditOnce(
  em: EntityManager,
  credit: {
    userId: string;
    credits: number;
    reason: 'purchase' | 'monthly_grant';
    reference: string;
    note: string;
    at: Date;
  },
): Promise<boolean> {
  const db = query<Tables>(em);
  const inserted = await db
    .insertInto('credit_ledger')
    .values({
      id: sql`gen_random_uuid()`,
      user_id: credit.userId,
      delta: credit.credits,
      reason: credit.reason,
      note: credit.note,
      debate_id: null,
      reference: credit.reference,
      created_at: credit.at,
    })
    .onConflict((conflict) => conflict.column('reference').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) return false;
  const balance = await addToCreditBalance(em, credit.userId, credit.credits);
  if (balance !== null) {
    await recordCreditGrant(
      em,
      { now: () => credit.at.getTime() },
      { userId: credit.userId, amount: credit.credits, balance, reason: credit.reason },
    );
  }
  return true;
}

export type Billing = ReturnType<typeof createBilling>;

/** What the credits' operations use of core's resources. */
export type BillingResources = Pick<CoreResources, 'db' | 'clock'>;

export function createBilling({ db, clock }: BillingResources) {
  return {
    /** Adds credits (an operator's grant), with its ledger row, in one transaction; returns the balance. */
    grantCredits: async (userId: string, amount: number, note: string | null = null): Promise<number> => {
      if (!Number.isInteger(amount) || amount <= 0) {
        throw new AppError('VALIDATION_ERROR', 'Credits to grant must be a positive integer');
      }
      return db.em().transactional(async (em) => {
        const balance = await move(em, {
          userId,
          delta: amount,
          reason: 'grant',
          note,
          debateId: null,
          at: new Date(clock.now()),
        });
        if (balance === null) throw new AppError('USER_NOT_FOUND', 'User not found');
        await recordCreditGrant(em, clock, { userId, amount, balance, reason: 'grant' });
        return balance;
      });
    },
  };
}
