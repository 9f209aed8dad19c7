import {
  createTestCore,
  insertStoredDebate,
  type ReceivedDelivery,
  type TestCore,
} from '@verdict/core/testing';
import { type FakeLlmServer, startFakeLlmServer } from '@verdict/engine/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providerCallViolations } from '../infra/cluster/provider-calls.ts';
import { webhookViolations } from '../infra/cluster/webhook-watch.ts';

/**
 * The chaos runs' checks (infra/cluster/) find what they are there to find: a run that broke an invariant
 * must not pass because its check could not see it.
 */

const delivery = (deliveryId: string, event: string, debateId: string): ReceivedDelivery => ({
  headers: { 'webhook-id': deliveryId },
  body: JSON.stringify({ event, id: `${event}:${debateId}`, data: { debateId } }),
  path: '/hooks',
});

describe('the webhook check', () => {
  it('accepts each event delivered under one id, repeats included', async () => {
    const received = [
      delivery('a', 'debate.created', 'd1'),
      delivery('a', 'debate.created', 'd1'),
      delivery('b', 'debate.completed', 'd1'),
    ];
    expect(await webhookViolations(received, ['d1'], 0)).toEqual([]);
  });

  it('finds an event missing, an event under two ids, and an id carrying two events', async () => {
    expect(await webhookViolations([delivery('a', 'debate.created', 'd1')], ['d1'], 0)).toEqual([
      'debate d1: debate.completed delivered under 0 delivery ids',
    ]);
    const twice = [
      delivery('a', 'debate.created', 'd1'),
      delivery('c', 'debate.created', 'd1'),
      delivery('b', 'debate.completed', 'd1'),
    ];
    expect(await webhookViolations(twice, ['d1'], 0)).toEqual([
      'debate d1: debate.created delivered under 2 delivery ids',
    ]);
    const reused = [delivery('a', 'debate.created', 'd1'), delivery('a', 'debate.completed', 'd1')];
    expect(await webhookViolations(reused, ['d1'], 0)).toContain(
      'delivery a carried both d1 debate.created and d1 debate.completed',
    );
  });
});

describe('the provider-call check', () => {
  let test: TestCore;
  let fake: FakeLlmServer;
  let debateId: string;
  const question = 'Should the checked debate go ahead?';

  /** A debater's turn as the engine asks it (engine/prompts.ts), through the fake provider. */
  const ask = (agent: string, round: number) =>
    fetch(`${fake.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'k' },
      body: JSON.stringify({
        model: 'claude-test',
        max_tokens: 100,
        system: `You are ${agent}, the advocate on a panel debating a decision.`,
        messages: [
          {
            role: 'user',
            content: `Question: ${question}\n${round > 1 ? `Round ${round - 1} arguments:\n…` : ''}`,
          },
        ],
      }),
    }).then((res) => res.text());

  const store = (agent: string, round: number, seq: number) =>
    test.core.db.execute(
      `insert into debate_events (debate_id, attempt, seq, type, data) values (?, 1, ?, ?, ?::jsonb)`,
      [debateId, seq, round === 1 ? 'argument' : 'rebuttal', JSON.stringify({ agent, round })],
    );

  beforeAll(async () => {
    test = await createTestCore();
    fake = await startFakeLlmServer([{ text: 'A point.' }]);
    const owner = await test.core.accounts.createUser({ email: 'checked@example.com', name: 'Checked' });
    debateId = await insertStoredDebate(test.core, { ownerId: owner.id, question, status: 'running' });
  });
  afterAll(async () => {
    await fake?.close();
    await test?.cleanup();
  });

  it('accepts turns asked before they were stored, and finds one asked after, and one never asked', async () => {
    await ask('Advocate', 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await store('Advocate', 1, 1);
    expect(await providerCallViolations(test.core.db, fake, [debateId])).toEqual([]);

    await new Promise((resolve) => setTimeout(resolve, 20));
    await ask('Advocate', 1);
    await store('Skeptic', 1, 2);
    const violations = await providerCallViolations(test.core.db, fake, [debateId]);
    expect(violations).toEqual([
      `debate ${debateId}: ${debateId} 1 Advocate asked 1 times after it was stored`,
      `debate ${debateId}: ${debateId} 1 Skeptic stored but never asked`,
    ]);
  });
});
