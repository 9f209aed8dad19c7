import { randomUUID } from 'node:crypto';
import type { DebateMode, FundingSource } from '@verdict/contracts';
import type { JobQueue } from '../bus/ports.ts';
import type { Core } from '../core.ts';
import type { Database } from '../db/orm.ts';
import { Debate } from '../debates/debate.entity.ts';
import type { KeyRouting } from '../routing/models.ts';

/** A debate as a test wants it stored: unpaid, pending, with the panel it names. */
export type PendingDebate = {
  ownerId: string;
  question: string;
  context?: string | null;
  mode?: DebateMode;
  agents: number;
  rounds: number;
  preset?: string | null;
  routing?: KeyRouting | null;
  fundingSource?: FundingSource;
  /**
   * As if a node had started it and given it back (`started_at` set, nothing stored): the next claim reads
   * the stored state back instead of skipping that as it does for a debate no node started.
   */
  startedBefore?: boolean;
};

/**
 * Writes a pending debate and queues its first attempt, bypassing creation's rules (billing, limits): for
 * tests of what happens to a debate once it exists. Production code creates debates through
 * debates/creation.ts only.
 */
export async function insertPendingDebate(
  core: { db: Database; bus: { jobs: JobQueue } },
  input: PendingDebate,
): Promise<{ id: string }> {
  const id = randomUUID();
  await core.db.execute(
    `insert into debates (id, owner_id, question, context, mode, status, funding_source, requested_agents,
       requested_rounds, preset, routing, started_at)
     values (?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?, ?::jsonb, ${input.startedBefore ? 'now()' : 'null'})`,
    [
      id,
      input.ownerId,
      input.question,
      input.context ?? null,
      input.mode ?? 'fast',
      input.fundingSource ?? 'user_credits',
      input.agents,
      input.rounds,
      input.preset ?? null,
      input.routing ? JSON.stringify(input.routing) : null,
    ],
  );
  await core.bus.jobs.enqueue({ debateId: id, attempt: 1 });
  return { id };
}

/** The debate row as stored now (any owner, deleted or not), or null. */
export const readDebate = (core: Core, id: string) => core.db.em().findOne(Debate, { id });

/** A debate as a test stores it, finished or not, with no job queued: nothing will run it. */
export type StoredDebate = {
  ownerId: string;
  question: string;
  status?: 'pending' | 'running' | 'paused' | 'completed' | 'failed';
  isPublic?: boolean;
  createdAt?: Date;
  viewCount?: number;
  deleted?: boolean;
  forkedFromId?: string | null;
};

/**
 * Writes a debate straight to the database (completed and private unless said), for tests of what reads,
 * shares or reacts to debates. Production code creates debates through debates/creation.ts only.
 */
export async function insertStoredDebate(core: { db: Database }, input: StoredDebate): Promise<string> {
  const id = randomUUID();
  const status = input.status ?? 'completed';
  await core.db.execute(
    `insert into debates (id, owner_id, question, mode, status, funding_source, requested_agents,
       requested_rounds, is_public, created_at, completed_at, view_count, deleted_at, forked_from_id)
     values (?, ?, ?, 'fast', ?, 'user_credits', 3, 1, ?, ?, ?, ?, ?, ?)`,
    [
      id,
      input.ownerId,
      input.question,
      status,
      input.isPublic ?? false,
      (input.createdAt ?? new Date()).toISOString(),
      status === 'completed' ? new Date().toISOString() : null,
      input.viewCount ?? 0,
      input.deleted ? new Date().toISOString() : null,
      input.forkedFromId ?? null,
    ],
  );
  return id;
}
