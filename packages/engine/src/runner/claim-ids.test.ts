import { CLAIM_ID_MAX, CLAIM_ID_PATTERN, ClaimId, claimIdOf, type DebateEventBody } from '@verdict/contracts';
import { describe, expect, it } from 'vitest';
import { seatPanel } from '../machine/panel.ts';
import { simulatedProvider } from '../providers/simulated.ts';
import { startDebate } from './run-debate.ts';

/** The argument and rebuttal events of a finished simulated debate of `agents` × `rounds`. */
async function messagesOf(options: { agents: number; rounds: number; attempt?: number }) {
  const events: DebateEventBody[] = [];
  const debate = startDebate(
    {
      debateId: '5a0e8a4e-7f55-4b8a-9a41-2f0c1d9e6b73',
      question: 'Should our team adopt a four-day working week next quarter?',
      context: null,
      mode: 'balanced',
      seats: seatPanel(options.agents, ['simulated/sonnet', 'simulated/haiku']),
      rounds: options.rounds,
    },
    {
      provider: simulatedProvider(),
      judgeModel: 'simulated/opus',
      policy: { timeoutMs: 500, retries: 1, backoffMs: 1 },
      emit: (event) => events.push(event),
      ...(options.attempt === undefined ? {} : { attempt: options.attempt }),
    },
  );
  expect((await debate.done).value).toBe('completed');
  return events.flatMap((event) =>
    event.type === 'argument' || event.type === 'rebuttal' ? [{ type: event.type, ...event.data }] : [],
  );
}

describe('claimIds of agent messages', () => {
  it('name every argument and rebuttal by its attempt, round and agent, each message its own', async () => {
    const messages = await messagesOf({ agents: 7, rounds: 3, attempt: 3 });
    expect(messages).toHaveLength(21);
    expect(messages.filter((m) => m.type === 'rebuttal')).toHaveLength(14);
    for (const message of messages) {
      expect(message.claimId).toBe(claimIdOf({ attempt: 3, round: message.round, agent: message.agent }));
      expect(message.claimId).toMatch(new RegExp(`^a3-r${message.round}-[a-z0-9-]+$`));
      expect(message.claimId.length).toBeLessThanOrEqual(CLAIM_ID_MAX);
      // What the vote routes accept: a claimId the engine writes is always votable.
      expect(ClaimId.safeParse(message.claimId).success).toBe(true);
    }
    expect(new Set(messages.map((m) => m.claimId)).size).toBe(messages.length);
  });

  it('count a debate that was never retried as attempt 1', async () => {
    const messages = await messagesOf({ agents: 3, rounds: 1 });
    expect(messages.map((m) => m.claimId.slice(0, 5))).toEqual(['a1-r1', 'a1-r1', 'a1-r1']);
  });

  it('turn any agent name into lowercase, URL-safe text', () => {
    expect(claimIdOf({ attempt: 2, round: 4, agent: 'Risk Analyst' })).toBe('a2-r4-risk-analyst');
    expect(claimIdOf({ attempt: 1, round: 1, agent: "Devil's  Advocate (2)" })).toBe(
      'a1-r1-devil-s-advocate-2-',
    );
    for (const agent of ['Risk Analyst', 'Ünïcode Ågent', 'x'.repeat(100)]) {
      expect(claimIdOf({ attempt: 12, round: 5, agent })).toMatch(CLAIM_ID_PATTERN);
    }
  });
});
