import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import type { DebateCost, DebateMode, DebateStatus, Verdict } from '@verdict/contracts';
import { User } from '../accounts/user.entity.ts';
import type { JobQueue } from '../bus/ports.ts';
import type { Database } from '../db/orm.ts';
import { sqlIn } from '../db/sql.ts';
import type { KeyRouting } from '../engine/llm/models.ts';
import type { Clock } from '../shared/clock.ts';
import { Debate, type FundingSource } from './debate.entity.ts';

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

const REFUNDED_FAILURES = new Set(['PROVIDER_ERROR', 'PROVIDER_TIMEOUT']);

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

    /** Moves the attempt to `status` unless it has already finished. Returns false when nothing moved. */
    setStatus: async (id: string, attempt: number, status: Extract<DebateStatus, 'running' | 'paused'>) => {
      const changed = await db
        .em()
        .nativeUpdate(
          Debate,
          { id, attempt, status: { $in: ['pending', 'running', 'paused'] } },
          status === 'running' ? { status, startedAt: now() } : { status },
        );
      return changed > 0;
    },

    /**
     * Starts a fresh attempt of a debate whose earlier attempt was left unfinished (its node died), so the
     * new run's events form their own gap-free stream. Returns the new attempt, or null if another node
     * got there first or the debate moved on.
     */
    restartAttempt: async (id: string, attempt: number): Promise<number | null> => {
      const rows = await db.execute<{ attempt: number }>(
        `update debates set attempt = attempt + 1, status = 'pending'
          where id = ? and attempt = ? and status in ('running', 'paused') returning attempt`,
        [id, attempt],
      );
      return rows[0] ? Number(rows[0].attempt) : null;
    },

    /** Stores the final state of the attempt once; a second call (a redelivered job) changes nothing. */
    finish: async (id: string, attempt: number, outcome: DebateOutcome) => {
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
          { id, attempt, status: { $in: ['pending', 'running', 'paused'] } },
          { ...fields, completedAt: now() },
        );
        // A debate that failed for its provider gave the caller nothing: its credits go back, once (the
        // status guard above lets only the first finish through).
        if (changed > 0 && outcome.status === 'failed' && REFUNDED_FAILURES.has(outcome.code)) {
          await refundCharge(em, id, now());
        }
        return changed;
      });
    },

    /** Stores one finished turn; its key makes a repeated write a no-op. */
    saveTurn: async (
      scope: { debateId: string; attempt: number },
      turn: { round: number; agent: string; content: string; model: string; targetAgent: string | null },
      usage: { inputTokens: number; outputTokens: number },
    ) => {
      await db.execute(
        `insert into debate_turns (debate_id, attempt, round, agent, content, model, target_agent, input_tokens, output_tokens)
         values (?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict do nothing`,
        [
          scope.debateId,
          scope.attempt,
          turn.round,
          turn.agent,
          turn.content,
          turn.model,
          turn.targetAgent,
          usage.inputTokens,
          usage.outputTokens,
        ],
      );
    },
  };
}
