import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import type { DebateCost, DebateMode, DebateStatus, FundingSource, Verdict } from '@verdict/contracts';
import { User } from '../accounts/user.entity.ts';
import type { JobQueue } from '../bus/ports.ts';
import type { Database } from '../db/orm.ts';
import { sqlIn } from '../db/sql.ts';
import type { KeyRouting } from '../routing/models.ts';
import type { Clock } from '../shared/clock.ts';
import { Debate } from './debate.entity.ts';

export type NewDebate = {
  ownerId: string;
  question: string;
  context: string | null;
  mode: DebateMode;
  agents: number;
  rounds: number;
  preset: string | null;
  routing: KeyRouting | null;
  fundingSource: FundingSource;
};

export type DebateOutcome =
  | {
      status: 'completed';
      verdict: Verdict;
      cost: DebateCost;
      agentCount: number;
      roundCount: number;
      agentsUsed: string[];
    }
  | { status: 'failed'; code: string; message: string; cost: DebateCost };

export type DebateRecords = ReturnType<typeof createDebateRecords>;

/** The attempt a node runs and the lease epoch it claimed (engine/lease.ts); every engine write names both. */
export type Lease = { attempt: number; epoch: number };

/**
 * The webhook event of a finished debate, written in the transaction that finishes it. The dedupe key
 * (one per debate attempt and event) makes a second finish unable to queue a second delivery.
 */
async function queueWebhookEvent(
  em: EntityManager,
  debateId: string,
  attempt: number,
  outcome: DebateOutcome,
) {
  const event = outcome.status === 'completed' ? 'debate.completed' : 'debate.failed';
  const payload =
    outcome.status === 'completed'
      ? {
          debateId,
          status: 'completed',
          recommendation: outcome.verdict.recommendation,
          confidence: outcome.verdict.confidence,
          oneLiner: outcome.verdict.oneLiner,
        }
      : { debateId, status: 'failed', code: outcome.code, error: outcome.message };
  await sqlIn(em)(
    `insert into webhook_outbox (user_id, event, debate_id, dedupe_key, payload)
     select owner_id, ?, id, ?, ?::jsonb from debates where id = ?
     on conflict (dedupe_key) do nothing`,
    [event, `${event}:${debateId}:${attempt}`, JSON.stringify(payload), debateId],
  );
}

/** Failures that gave the caller nothing through no fault of theirs: the provider's, or the engine's. */
const REFUNDED_FAILURES = new Set(['PROVIDER_ERROR', 'PROVIDER_TIMEOUT', 'INTERNAL_ERROR']);

async function refundCharge(em: EntityManager, debateId: string, at: Date) {
  const run = sqlIn(em);
  const [charge] = await run<{ user_id: string; charged: number }>(
    `select user_id, -sum(delta)::int as charged from credit_ledger
      where debate_id = ? and reason in ('debate', 'refund') group by user_id`,
    [debateId],
  );
  const amount = Number(charge?.charged ?? 0);
  if (!charge || amount <= 0) return;
  await run('update users set credit_balance = credit_balance + ? where id = ?', [amount, charge.user_id]);
  await run(
    `insert into credit_ledger (id, user_id, delta, reason, note, debate_id, created_at)
     values (gen_random_uuid(), ?, ?, 'refund', 'debate failed: provider error', ?, ?)`,
    [charge.user_id, amount, debateId, at],
  );
}

/** cost.credits: what the debate's attempts were charged in the end, net of refunds, from the ledger. */
async function settleCreditsCharged(em: EntityManager, debateId: string) {
  await sqlIn(em)(
    `update debates set cost = jsonb_set(cost, '{credits}', to_jsonb(coalesce(
       (select -sum(delta) from credit_ledger where debate_id = ?), 0)::int))
     where id = ?`,
    [debateId, debateId],
  );
}

/** Rows of the debates table as the engine moves them along; the API's create flow builds on `insert`. */
export function createDebateRecords(db: Database, jobs: JobQueue, clock: Clock) {
  const now = () => new Date(clock.now());
  return {
    /** Writes a pending debate and queues its first attempt. */
    insertAndEnqueue: async (input: NewDebate): Promise<Debate> => {
      const em = db.em();
      const debate = em.create(Debate, {
        id: randomUUID(),
        owner: em.getReference(User, input.ownerId),
        question: input.question,
        context: input.context,
        mode: input.mode,
        status: 'pending',
        fundingSource: input.fundingSource,
        isPublic: false,
        requestedAgents: input.agents,
        requestedRounds: input.rounds,
        preset: input.preset,
        routing: input.routing,
        agentCount: null,
        roundCount: null,
        verdict: null,
        cost: null,
        failureCode: null,
        failureMessage: null,
        attempt: 1,
        leaseOwner: null,
        leaseEpoch: 0,
        leaseExpiresAt: null,
        requeuedAt: null,
        workspaceId: null,
        agentsUsed: null,
        deletedAt: null,
        createdAt: now(),
        startedAt: null,
        completedAt: null,
      });
      await em.flush();
      await jobs.enqueue({ debateId: debate.id, attempt: debate.attempt });
      return debate;
    },

    find: (id: string) => db.em().findOne(Debate, { id }),

    /** Mirrors the holder's paused/running state into the row, while `epoch` still holds the lease. */
    setStatus: async (id: string, lease: Lease, status: Extract<DebateStatus, 'running' | 'paused'>) => {
      const changed = await db
        .em()
        .nativeUpdate(
          Debate,
          { id, attempt: lease.attempt, leaseEpoch: lease.epoch, status: { $in: ['running', 'paused'] } },
          { status },
        );
      return changed > 0;
    },

    /**
     * Stores the final state of the attempt once, with its webhook outbox row, and only while `lease` holds:
     * a second call (a redelivered job, a node that lost its lease) changes nothing.
     */
    finish: async (id: string, lease: Lease, outcome: DebateOutcome) => {
      const fields =
        outcome.status === 'completed'
          ? {
              status: 'completed' as const,
              verdict: outcome.verdict,
              cost: outcome.cost,
              agentCount: outcome.agentCount,
              roundCount: outcome.roundCount,
              agentsUsed: outcome.agentsUsed,
            }
          : {
              status: 'failed' as const,
              cost: outcome.cost,
              failureCode: outcome.code,
              failureMessage: outcome.message,
            };
      return db.em().transactional(async (em) => {
        const changed = await em.nativeUpdate(
          Debate,
          {
            id,
            attempt: lease.attempt,
            leaseEpoch: lease.epoch,
            status: { $in: ['pending', 'running', 'paused'] },
          },
          { ...fields, completedAt: now(), leaseOwner: null, leaseExpiresAt: null },
        );
        if (changed === 0) return 0;
        // A debate that failed for its provider gave the caller nothing: its credits go back, once (the
        // status guard above lets only the first finish through).
        if (outcome.status === 'failed' && REFUNDED_FAILURES.has(outcome.code)) {
          await refundCharge(em, id, now());
        }
        await settleCreditsCharged(em, id);
        await queueWebhookEvent(em, id, lease.attempt, outcome);
        return changed;
      });
    },

    /**
     * Stores one finished turn while `lease` holds; its key makes a repeated write a no-op. Returns false
     * when the lease is gone (the turn is not stored).
     */
    saveTurn: async (
      debateId: string,
      lease: Lease,
      turn: { round: number; agent: string; content: string; model: string; targetAgent: string | null },
      usage: { inputTokens: number; outputTokens: number },
    ): Promise<boolean> => {
      const [result] = await db.execute<{ owned: number }>(
        `with owner as (
           select id from debates where id = ? and attempt = ? and lease_epoch = ? for share
         ), stored as (
           insert into debate_turns (debate_id, attempt, round, agent, content, model, target_agent, input_tokens, output_tokens)
           select owner.id, ?, ?, ?, ?, ?, ?, ?, ? from owner on conflict do nothing
         )
         select count(*)::int as owned from owner`,
        [
          debateId,
          lease.attempt,
          lease.epoch,
          lease.attempt,
          turn.round,
          turn.agent,
          turn.content,
          turn.model,
          turn.targetAgent,
          usage.inputTokens,
          usage.outputTokens,
        ],
      );
      return Number(result?.owned ?? 0) > 0;
    },
  };
}
