import { createHash, randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import {
  type DebateMode,
  type FundingSource,
  MODE_CREDITS,
  MODE_PANEL,
  PLANS,
  type Plan,
} from '@verdict/contracts';
import { sql } from 'kysely';
import type { AccountTables } from '../accounts/tables.ts';
import { chooseFunding, type FundingRoute } from '../billing/funding.ts';
import { chargedFor, debitDebate } from '../billing/ledger.ts';
import { assertPlanIncludes } from '../billing/plan-gates.ts';
import type { BillingTables } from '../billing/tables.ts';
import type { Bus } from '../bus/ports.ts';
import type { Config } from '../config/config.ts';
import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import { judgeModelFor } from '../routing/judge-model.ts';
import type { KeyRouting } from '../routing/models.ts';
import { AppError, notFound } from '../shared/app-error.ts';
import type { Clock } from '../shared/clock.ts';
import { queueDebateWebhook } from '../webhooks/outbox.ts';
import { findMembership } from '../workspaces/access.ts';
import { assertRight } from '../workspaces/roles.ts';
import type { WorkspaceTables } from '../workspaces/tables.ts';
import type { ByokKeys } from './provider-keys-header.ts';
import type { DebateTables } from './tables.ts';

type Tables = DebateTables & AccountTables & BillingTables & WorkspaceTables;

/** What a caller asks for; the rules of this module turn it into a funded, queued debate. */
export type DebateRequest = {
  ownerId: string;
  /** Which family asked: /v1 reports missing credits as 402, /api as 429. */
  route: FundingRoute;
  question: string;
  context: string | null;
  /** Omitted: the workspace's defaultDebateMode, else fast. */
  mode?: DebateMode | undefined;
  /** A workspace the creator may write to: its owner's plan pays and its members read the debate. */
  workspaceId?: string | null | undefined;
  /** Agents and rounds when the caller overrides the mode's (agentCount, maxRounds). */
  agents?: number | undefined;
  rounds?: number | undefined;
  preset: string | null;
  /** The creating key's routing choices; provider keys never travel with a debate. */
  routing: KeyRouting | null;
  /** Options to compare (/v1): priced as a comparison. */
  compare: boolean;
  skipCache: boolean;
  providerKeys: ByokKeys | null;
  idempotencyKey: string | null;
  /** Everything that identifies the request, hashed for the Idempotency-Key check. */
  fingerprint: unknown;
  /** The debate this one forks (counted towards the source's trending). */
  forkedFromId?: string;
  /** What else the new debate's transaction writes (a fork's notification to the source's owner). */
  alsoWrite?: (em: EntityManager, debateId: string) => Promise<void>;
};

/**
 * A transaction of the caller's that the debate joins (as a savepoint, so a refusal undoes only the
 * debate's writes): the scheduler's, which creates the debate and moves its schedule on together. The job
 * is queued by `afterCommit`'s callback, which the caller runs once its transaction has committed.
 */
export type CallerTransaction = { em: EntityManager; afterCommit: (queue: () => Promise<void>) => void };

export type CreationResult = {
  debateId: string;
  fundingSource: FundingSource;
  /** True when an identical recent debate answered: no new debate, no charge. */
  cached: boolean;
  /** The judge the debate gets, named to free-plan callers (their lighter judge). */
  judgeModel: string | null;
};

const IDEMPOTENCY_WINDOW_MS = 24 * 3_600_000;
/** How long the API process holds BYOK keys for the engine to fetch; a later start fails clearly. */
const BYOK_HOLD_MS = 15 * 60_000;

/** The account a debate is paid from: its creator's, or a workspace debate's owner's. */
type Payer = { id: string; plan: Plan; credit_balance: number };

/**
 * The rules that make a debate, in one place for every way one is made — POST /api/debates, POST
 * /v1/verdicts, a fork, a retry and the scheduler: the mode's panel, the concurrent limit, who pays
 * (credits, the free tier on its lighter judge, or the caller's own keys), the debit, and the dispatch to the
 * engines. Each runs in one transaction with the owner's row locked, so concurrent creates of one account run
 * one after another: the balance can never be overdrawn and the concurrent limit is exact. The job is
 * queued after commit.
 */
export function createDebateCreation(
  db: Database,
  bus: Bus,
  clock: Clock,
  config: Config,
  onQueueError: (error: unknown) => void,
) {
  const upgradeUrl = `${config.appUrl}/pricing`;

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

  /**
   * Who pays for a new debate, locked: its creator, or for a workspace debate the workspace's owner, once
   * the creator's right to write there (member or above) and the owner's plan (one with workspaces) hold.
   */
  async function payerFor(
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
  async function assertConcurrentRoom(em: EntityManager, ownerId: string) {
    const limit = config.debates.concurrentLimit;
    const active = await query<Tables>(em)
      .selectFrom('debates')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('owner_id', '=', ownerId)
      .where('status', 'in', ['pending', 'running', 'paused'])
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow();
    if (active.n >= limit) {
      throw new AppError('CONCURRENT_LIMIT', `At most ${limit} debates may run at once`, {
        extra: { activeCount: active.n, limit },
      });
    }
  }

  /**
   * Who pays for a debate of `credits` and takes the credits: the concurrent limit first, then the funding
   * rules (billing/funding.ts), then the debit. `freeTier` is false for a retry: a debate that was paid for
   * is paid for again, never moved to the free tier.
   */
  async function fund(
    em: EntityManager,
    request: {
      ownerId: string;
      payer: Payer;
      credits: number;
      route: FundingRoute;
      hasProviderKeys: boolean;
    },
    debit: { debateId: string; note: string; at: Date; freeTier: boolean },
  ): Promise<FundingSource> {
    await assertConcurrentRoom(em, request.ownerId);
    // Counting this month's free-tier debates only matters for a free account its credits do not cover.
    const needsFreeTier =
      debit.freeTier && PLANS[request.payer.plan].freeTier && request.payer.credit_balance < request.credits;
    const funding = chooseFunding({
      plan: request.payer.plan,
      balance: request.payer.credit_balance,
      credits: request.credits,
      hasProviderKeys: request.hasProviderKeys,
      freeTier: debit.freeTier
        ? {
            used: needsFreeTier ? await freeDebatesThisMonth(em, request.payer.id, debit.at) : 0,
            monthly: config.debates.freeMonthly,
          }
        : null,
      route: request.route,
      upgradeUrl,
    });
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

  /**
   * After commit: BYOK keys wait in memory for the engine, then the job goes on the queue. The debate is
   * stored and paid for by now, so a bus that refuses the job does not fail the request: the engines'
   * reconciler queues the debate once it has waited ENGINE_STALE_AFTER_MS, and `onQueueError` reports it.
   */
  async function dispatch(job: { debateId: string; attempt: number }, providerKeys: ByokKeys | null) {
    try {
      if (providerKeys) {
        const release = await bus.keys.hold(job.debateId, providerKeys);
        setTimeout(release, BYOK_HOLD_MS).unref();
      }
      await bus.jobs.enqueue(job);
    } catch (error) {
      onQueueError(error);
    }
  }

  /** The judge to name in the create response: only free-tier plans are told (theirs is lighter). */
  const judgeFor = (plan: Plan, fundingSource: FundingSource, request: DebateRequest) =>
    PLANS[plan].freeTier
      ? judgeModelFor(config.providers, { fundingSource, preset: request.preset, routing: request.routing })
      : null;

  /** An Idempotency-Key seen within its window: the first debate again, or 409 for another body. */
  async function replayed(em: EntityManager, request: DebateRequest, requestHash: string, now: Date) {
    if (!request.idempotencyKey) return null;
    const db = query<Tables>(em);
    const key = { owner_id: request.ownerId, route: request.route, key: request.idempotencyKey };
    const previous = await db
      .selectFrom('idempotency_keys')
      .select(['request_hash', 'debate_id', 'created_at'])
      .where('owner_id', '=', key.owner_id)
      .where('route', '=', key.route)
      .where('key', '=', key.key)
      .executeTakeFirst();
    if (!previous) return null;
    if (now.getTime() - new Date(previous.created_at).getTime() >= IDEMPOTENCY_WINDOW_MS) {
      await db
        .deleteFrom('idempotency_keys')
        .where('owner_id', '=', key.owner_id)
        .where('route', '=', key.route)
        .where('key', '=', key.key)
        .execute();
      return null;
    }
    if (previous.request_hash !== requestHash) {
      throw new AppError('CONFLICT', 'This Idempotency-Key was used with a different request');
    }
    const first = await db
      .selectFrom('debates')
      .select('funding_source')
      .where('id', '=', previous.debate_id)
      .executeTakeFirst();
    return {
      debateId: previous.debate_id,
      fundingSource: first?.funding_source ?? ('user_credits' as const),
    };
  }

  /** An identical completed debate of the same owner within DEBATE_CACHE_HOURS, if caching applies. */
  async function cachedAnswer(
    em: EntityManager,
    request: DebateRequest & { mode: DebateMode },
    panel: Panel,
    now: Date,
  ) {
    if (request.skipCache || config.debates.cacheTtlMs <= 0 || request.providerKeys) return null;
    return (
      (await query<Tables>(em)
        .selectFrom('debates')
        .select(['id', 'funding_source'])
        .where('owner_id', '=', request.ownerId)
        .where('question', '=', request.question)
        .where('mode', '=', request.mode)
        .where(sql<boolean>`context is not distinct from ${request.context}`)
        .where('requested_agents', '=', panel.agents)
        .where('requested_rounds', '=', panel.rounds)
        .where(sql<boolean>`preset is not distinct from ${request.preset}`)
        // Only from the same place: a personal answer must not stand in for a workspace's, nor the reverse.
        .where(sql<boolean>`workspace_id is not distinct from ${request.workspaceId ?? null}`)
        .where('status', '=', 'completed')
        .where('deleted_at', 'is', null)
        .where('completed_at', '>', new Date(now.getTime() - config.debates.cacheTtlMs).toISOString())
        .orderBy('completed_at', 'desc')
        .limit(1)
        .executeTakeFirst()) ?? null
    );
  }

  return {
    /** A new debate (or the first one again, for a repeated Idempotency-Key; or a cached answer). */
    create: async (request: DebateRequest, caller?: CallerTransaction): Promise<CreationResult> => {
      const requestHash = createHash('sha256').update(JSON.stringify(request.fingerprint)).digest('hex');
      const result = await (caller?.em ?? db.em()).transactional(async (em) => {
        const now = new Date(clock.now());
        const { payer, workspace } = await payerFor(em, request);
        const again = await replayed(em, request, requestHash, now);
        if (again) return { ...again, cached: false, queue: false, plan: payer.plan };
        const mode = request.mode ?? workspace?.defaultDebateMode ?? 'fast';
        const panel = panelFor({ ...request, mode });
        const remember = async (debateId: string) => {
          if (!request.idempotencyKey) return;
          await query<Tables>(em)
            .insertInto('idempotency_keys')
            .values({
              owner_id: request.ownerId,
              route: request.route,
              key: request.idempotencyKey,
              request_hash: requestHash,
              debate_id: debateId,
              created_at: now,
            })
            .execute();
        };
        const hit = await cachedAnswer(em, { ...request, mode }, panel, now);
        if (hit) {
          await remember(hit.id);
          return {
            debateId: hit.id,
            fundingSource: hit.funding_source,
            cached: true,
            queue: false,
            plan: payer.plan,
          };
        }
        const debateId = randomUUID();
        const fundingSource = await fund(
          em,
          {
            ownerId: request.ownerId,
            payer,
            credits: request.compare ? MODE_CREDITS.compare : MODE_CREDITS[mode],
            route: request.route,
            hasProviderKeys: request.providerKeys !== null,
          },
          { debateId, note: `${mode} debate`, at: now, freeTier: true },
        );
        await query<Tables>(em)
          .insertInto('debates')
          .values({
            id: debateId,
            owner_id: request.ownerId,
            question: request.question,
            context: request.context,
            mode,
            status: 'pending',
            funding_source: fundingSource,
            is_public: false,
            requested_agents: panel.agents,
            requested_rounds: panel.rounds,
            // The free tier runs on the lighter routing unless the caller chose a preset.
            preset: request.preset ?? (fundingSource === 'free_tier' ? 'economy' : null),
            routing: request.routing ? sql`${JSON.stringify(request.routing)}::jsonb` : null,
            attempt: 1,
            forked_from_id: request.forkedFromId ?? null,
            workspace_id: workspace?.workspaceId ?? null,
            created_at: now,
          })
          .execute();
        await remember(debateId);
        await request.alsoWrite?.(em, debateId);
        // Only here, for a debate that is new: a replayed Idempotency-Key or a cached answer creates nothing.
        await queueDebateWebhook(em, {
          debateId,
          event: 'debate.created',
          dedupeKey: `debate.created:${debateId}`,
          payload: { debateId, status: 'pending', mode, question: request.question },
        });
        return { debateId, fundingSource, cached: false, queue: true, plan: payer.plan };
      });
      const queue = async () => {
        if (result.queue) await dispatch({ debateId: result.debateId, attempt: 1 }, request.providerKeys);
      };
      if (caller) caller.afterCommit(queue);
      else await queue();
      return {
        debateId: result.debateId,
        fundingSource: result.fundingSource,
        cached: result.cached,
        judgeModel: judgeFor(result.plan, result.fundingSource, request),
      };
    },

    /**
     * POST /api/debates/:id/retry: a failed debate starts over as a new attempt with the same question and
     * mode; its previous events, turns and snapshot are cleared. A charge refunded on the failure is taken
     * again, by the same rules as a create but never from the free tier; BYOK debates need their
     * X-Provider-Keys again, as they were never stored.
     */
    retry: async (
      userId: string,
      id: string,
      providerKeys: ByokKeys | null,
    ): Promise<{ attempt: number }> => {
      const restarted = await db.em().transactional(async (em) => {
        const now = new Date(clock.now());
        const db = query<Tables>(em);
        // A workspace debate is paid for by the workspace's owner, by the rules of a create: the caller
        // must still be a member who may write there, and the owner's plan must still have workspaces.
        const place = await db
          .selectFrom('debates')
          .select('workspace_id')
          .where('id', '=', id)
          .where('owner_id', '=', userId)
          .executeTakeFirst();
        const { payer } = await payerFor(em, { ownerId: userId, workspaceId: place?.workspace_id });
        const debate = await db
          .selectFrom('debates')
          .select(['status', 'mode', 'funding_source', 'attempt'])
          .where('id', '=', id)
          .where('owner_id', '=', userId)
          .where('deleted_at', 'is', null)
          .forNoKeyUpdate()
          .executeTakeFirst();
        if (!debate) throw notFound('Debate');
        // Refused below, once the locks are released: asking the engines waits on the network.
        if (debate.status !== 'failed') return null;
        if (debate.funding_source === 'byok' && !providerKeys) {
          throw new AppError('VALIDATION_ERROR', 'Retrying a BYOK debate needs X-Provider-Keys again', {
            details: [
              { path: 'X-Provider-Keys', message: 'required for a BYOK debate', code: 'missing_header' },
            ],
          });
        }
        const credits = MODE_CREDITS[debate.mode];
        // Who pays now may differ from the first attempt (the debate moved into or out of a workspace):
        // the attempt runs as the payer's plan funds it.
        let fundingSource = debate.funding_source;
        if (debate.funding_source === 'user_credits' && (await chargedFor(em, id)) < credits) {
          fundingSource = await fund(
            em,
            { ownerId: userId, payer, credits, route: 'api', hasProviderKeys: providerKeys !== null },
            { debateId: id, note: 'retry', at: now, freeTier: false },
          );
        } else {
          await assertConcurrentRoom(em, userId);
        }
        await db.deleteFrom('debate_events').where('debate_id', '=', id).execute();
        await db.deleteFrom('debate_turns').where('debate_id', '=', id).execute();
        await db.deleteFrom('debate_snapshots').where('debate_id', '=', id).execute();
        const updated = await db
          .updateTable('debates')
          .set({
            status: 'pending',
            funding_source: fundingSource,
            attempt: sql<number>`attempt + 1`,
            verdict: null,
            cost: null,
            agent_count: null,
            round_count: null,
            agents_used: null,
            failure_code: null,
            failure_message: null,
            started_at: null,
            completed_at: null,
            lease_owner: null,
            lease_expires_at: null,
            requeued_at: null,
            interruptions: 0,
          })
          .where('id', '=', id)
          .returning('attempt')
          .executeTakeFirstOrThrow();
        return updated.attempt;
      });
      if (restarted === null) {
        if ((await bus.commands.send(id, { type: 'inspect' }, 1000)) !== 'no_engine')
          throw new AppError('DEBATE_ALREADY_RUNNING', 'An engine is running this debate');
        throw new AppError('DEBATE_NOT_FAILED', 'Only a failed debate can be retried');
      }
      await dispatch({ debateId: id, attempt: restarted }, providerKeys);
      return { attempt: restarted };
    },
  };
}

type Panel = { agents: number; rounds: number };

/** Agents × rounds: the mode's (v1 guide), unless the caller overrode them. */
const panelFor = (request: Pick<DebateRequest, 'agents' | 'rounds'> & { mode: DebateMode }): Panel => ({
  agents: request.agents ?? MODE_PANEL[request.mode].agents,
  rounds: request.rounds ?? MODE_PANEL[request.mode].rounds,
});

export type DebateCreation = ReturnType<typeof createDebateCreation>;
