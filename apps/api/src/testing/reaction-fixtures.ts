import { randomUUID } from 'node:crypto';
import { claimIdOf } from '@verdict/contracts';
import type { Harness, TestUser } from './http-harness.ts';

/**
 * A completed debate of `owner`, written straight to the database with no job queued, so nothing runs it
 * and its events are exactly those a test stores. Private unless `isPublic`.
 */
export async function storeDebate(h: Harness, owner: TestUser, options: { isPublic?: boolean } = {}) {
  const id = randomUUID();
  await h.core.db.execute(
    `insert into debates (id, owner_id, question, mode, status, funding_source, requested_agents,
       requested_rounds, is_public, completed_at)
     values (?, ?, ?, 'fast', 'completed', 'user_credits', 3, 2, ?, now())`,
    [
      id,
      owner.session.user.id,
      'Should we open a second office in Lisbon next year?',
      options.isPublic ?? false,
    ],
  );
  return id;
}

export const setPublic = (h: Harness, debateId: string, isPublic: boolean) =>
  h.core.db.execute('update debates set is_public = ? where id = ?', [isPublic, debateId]);

export const softDelete = (h: Harness, debateId: string) =>
  h.core.db.execute('update debates set deleted_at = now() where id = ?', [debateId]);

export type StoredMessage = { round: number; agent: string; attempt?: number };

/**
 * Stores argument events (rebuttals from round 2 on) for the messages, as the engine writes them, and
 * returns their claimIds in the same order.
 */
export async function storeMessages(h: Harness, debateId: string, messages: StoredMessage[]) {
  const claimIds: string[] = [];
  for (const { round, agent, attempt = 1 } of messages) {
    const claimId = claimIdOf({ attempt, round, agent });
    const type = round === 1 ? 'argument' : 'rebuttal';
    const data = {
      agent,
      round,
      claimId,
      content: `${agent} speaks in round ${round}`,
      model: 'simulated/sonnet',
      ...(type === 'rebuttal' ? { targetAgent: 'Skeptic' } : {}),
    };
    await h.core.db.execute(
      `insert into debate_events (debate_id, attempt, seq, type, data)
       values (?, ?, (select coalesce(max(seq), 0) + 1 from debate_events where debate_id = ? and attempt = ?),
         ?, ?::jsonb)`,
      [debateId, attempt, debateId, attempt, type, JSON.stringify(data)],
    );
    claimIds.push(claimId);
  }
  return claimIds;
}
