import type { EntityManager } from '@mikro-orm/core';
import { type FundingSource, PLANS, type Plan } from '@verdict/contracts';
import { sql } from 'kysely';
import type { AccountTables } from '../../accounts/tables.ts';
import { chooseFunding, type Funding, type FundingRoute } from '../../billing/funding.ts';
import { debitDebate } from '../../billing/ledger.ts';
import { assertPlanIncludes } from '../../billing/plan-gates.ts';
import { query } from '../../db/kysely.ts';
import { noteLimitRefusal } from '../../ratelimit/refusals.ts';
import { AppError } from '../../shared/app-error.ts';
import { findMembership } from '../../workspaces/access.ts';
import { assertRight } from '../../workspaces/roles.ts';
import type { WorkspaceTables } from '../../workspaces/tables.ts';
import type { DebateTables } from '../tables.ts';
import type { CreationResources } from './resources.ts';

type Tables = DebateTables & AccountTables & WorkspaceTables;

/** The account a debate is paid from: its creator's, or a workspace debate's owner's. */
export type Payer = { id: string; plan: Plan; credit_balance: number };

/**
 * Locks the accounts a debate involves (its creator's and, for a workspace debate, the payer's), always in
 * id order so two creations locking the same two accounts cannot deadlock, and before any debate row
 * (ARCHITECTURE.md, "Lock order"). `for no key update`, the lock a balance change takes: creations of one
 * account still run one after another, while an insert that only references the account (the engine's
 * webhook row when it finishes a debate) never waits on it.
 */
async function lockAccounts(em: EntityManager, creatorId: string, payerId: string): Promise<Payer> {
  const rows = await query<Tables>(em)
    .selectFrom('users')
    .select(['id', 'plan', 'credit_balance'])
    .where('id', 'in', [...new Set([creatorId, payerId])])
    .orderBy('id')
    .forNoKeyUpdate()
    .execute();
  const payer = rows.find((row) => row.id === payerId);
  if (!payer || !rows.some((row) => row.id === creatorId)) {
    throw new AppError('USER_NOT_FOUND', 'User not found');
  }
  return payer;
}

/** An account's plan, unlocked (a cached answer names the judge by it). */
export async function planOf(em: EntityManager, userId: string): Promise<Plan> {
  const row = await query<Tables>(em)
    .selectFrom('users')
    .select('plan')
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!row) throw new AppError('USER_NOT_FOUND', 'User not found');
  return row.plan;
}

/**
 * Who pays for a new debate, locked: its creator, or for a workspace debate the workspace's owner, once
 * the creator's right to write there (member or above) and the owner's plan (one with workspaces) hold.
 */
export async function payerFor(
  { upgradeUrl }: CreationResources,
  em: EntityManager,
  request: { ownerId: string; workspaceId?: string | null | undefined },
) {
  if (!request.workspaceId) {
    return { payer: await lockAccounts(em, request.ownerId, request.ownerId), workspace: null };
  }
  const seen = await findMembership(em, request.workspaceId, request.ownerId);
  if (!seen) throw new AppError('FORBIDDEN', 'You are not a member of this workspace');
  const payer = await lockAccounts(em, request.ownerId, seen.ownerId);
  // The workspace row first, in the order its deletion locks (workspace, then members): the two never
  // deadlock. Then the membership again under a share lock: a removal cannot slip in between.
  await query<Tables>(em)
    .selectFrom('workspaces')
    .select('id')
    .where('id', '=', request.workspaceId)
    .forKeyShare()
    .execute();
  const workspace = await findMembership(em, request.workspaceId, request.ownerId, 'share');
  if (!workspace) throw new AppError('FORBIDDEN', 'You are not a member of this workspace');
  assertRight(workspace.role, 'writeDebates', workspace);
  assertPlanIncludes(payer.plan, 'workspaces', upgradeUrl, "the workspace owner's account");
  return { payer, workspace };
}

/** Refuses when the account already has `limit` debates pending, running or paused. */
export async function assertConcurrentRoom(
  { config }: CreationResources,
  em: EntityManager,
  ownerId: string,
) {
  const limit = config.debates.concurrentLimit;
  const active = await query<Tables>(em)
    .selectFrom('debates')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('owner_id', '=', ownerId)
    .where('status', 'in', ['pending', 'running', 'paused'])
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  if (active.n >= limit) throw concurrentLimitError(active.n, config);
}

/** The refusal of a debate over the concurrent limit, counted as one. */
export function concurrentLimitError(activeCount: number, config: CreationResources['config']): AppError {
  const limit = config.debates.concurrentLimit;
  noteLimitRefusal('concurrentDebates');
  return new AppError('CONCURRENT_LIMIT', `At most ${limit} debates may run at once`, {
    extra: { activeCount, limit },
  });
}

export type FundingAsk = {
  ownerId: string;
  payer: Payer;
  credits: number;
  route: FundingRoute;
  hasProviderKeys: boolean;
};

/**
 * Who would pay for a debate of `credits`, and how much: the funding rules (billing/funding.ts) on the
 * payer's plan, balance and this month's free debates. Takes nothing; the create and the estimate share it.
 * `freeTier` is false for a retry: a debate that was paid for is paid for again, never moved to the free tier.
 */
export async function fundingOf(
  { config, upgradeUrl }: CreationResources,
  em: EntityManager,
  request: FundingAsk,
  at: Date,
  freeTier: boolean,
  quiet = false,
): Promise<Funding> {
  // Counting this month's free-tier debates only matters for a free account its credits do not cover.
  const needsFreeTier =
    freeTier && PLANS[request.payer.plan].freeTier && request.payer.credit_balance < request.credits;
  return chooseFunding({
    plan: request.payer.plan,
    balance: request.payer.credit_balance,
    credits: request.credits,
    hasProviderKeys: request.hasProviderKeys,
    freeTier: freeTier
      ? {
          used: needsFreeTier ? await freeDebatesThisMonth(em, request.payer.id, at) : 0,
          monthly: config.debates.freeMonthly,
        }
      : null,
    route: request.route,
    upgradeUrl,
    quiet,
  });
}

/**
 * Who pays for a debate of `credits` and takes the credits: the concurrent limit first, then the funding
 * rules (fundingOf), then the debit.
 */
export async function fund(
  resources: CreationResources,
  em: EntityManager,
  request: FundingAsk,
  debit: { debateId: string; note: string; at: Date; freeTier: boolean },
): Promise<FundingSource> {
  await assertConcurrentRoom(resources, em, request.ownerId);
  const funding = await fundingOf(resources, em, request, debit.at, debit.freeTier);
  if (funding.charge > 0) {
    await debitDebate(em, {
      ownerId: request.payer.id,
      credits: funding.charge,
      debateId: debit.debateId,
      note: debit.note,
      at: debit.at,
    });
  }
  return funding.source;
}

async function freeDebatesThisMonth(em: EntityManager, ownerId: string, now: Date): Promise<number> {
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const row = await query<Tables>(em)
    .selectFrom('debates')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('owner_id', '=', ownerId)
    .where('funding_source', '=', 'free_tier')
    .where('created_at', '>=', monthStart.toISOString())
    .executeTakeFirstOrThrow();
  return row.n;
}
