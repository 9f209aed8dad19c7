import type { DebateEventBody } from '@verdict/contracts';
import { buildArgumentGraph, citationsIn, type SpokenClaim } from '@verdict/core';
import { describe, expect, it } from 'vitest';
import { seatPanel } from '../machine/panel.ts';
import { simulatedProvider } from '../providers/simulated.ts';
import { startDebate } from './run-debate.ts';

/** The claims of a finished simulated debate of attempt 2, as the argument graph reads them from events. */
async function claimsOf(agents: number, rounds: number): Promise<SpokenClaim[]> {
  const events: DebateEventBody[] = [];
  const debate = startDebate(
    {
      debateId: '0c5d2b9e-51a4-4f7e-9d1c-3e8b7a6f2d10',
      question: 'Should we move the support team to a follow-the-sun rota?',
      context: null,
      mode: 'balanced',
      seats: seatPanel(agents, ['simulated/sonnet']),
      rounds,
    },
    {
      provider: simulatedProvider(),
      judgeModel: 'simulated/opus',
      policy: { timeoutMs: 500, retries: 1, backoffMs: 1 },
      emit: (event) => events.push(event),
      attempt: 2,
    },
  );
  expect((await debate.done).value).toBe('completed');
  return events.flatMap((event): SpokenClaim[] =>
    event.type === 'argument' || event.type === 'rebuttal'
      ? [
          {
            claimId: event.data.claimId,
            agent: event.data.agent,
            round: event.data.round,
            kind: event.type,
            targetAgent: event.type === 'rebuttal' ? event.data.targetAgent : null,
            content: event.data.content,
          },
        ]
      : [],
  );
}

describe('citations of the simulated debaters', () => {
  it("cite, from round 2 on, their target's claim as rebutted and another claim they build on", async () => {
    const claims = await claimsOf(4, 3);
    const ids = new Set(claims.map((c) => c.claimId));
    for (const claim of claims.filter((c) => c.round > 1)) {
      const cited = citationsIn(claim.content);
      expect(cited).toContainEqual({
        kind: 'rebuts',
        claimId: `a2-r${claim.round - 1}-${claim.targetAgent?.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`,
      });
      const supported = cited.filter((c) => c.kind === 'supports');
      expect(supported).toHaveLength(1);
      // Only claims of this attempt's round before: what the prompt showed.
      for (const { claimId } of cited) {
        expect(ids.has(claimId)).toBe(true);
        expect(claimId.startsWith(`a2-r${claim.round - 1}-`)).toBe(true);
      }
    }
    expect(claims.filter((c) => c.round === 1).every((c) => citationsIn(c.content).length === 0)).toBe(true);
  });

  it('give the graph of a simulated debate support edges as well as rebuttals', async () => {
    const { edges } = buildArgumentGraph(await claimsOf(3, 2), {});
    expect(edges.filter((e) => e.kind === 'rebuts')).toHaveLength(3);
    expect(edges.filter((e) => e.kind === 'supports')).toHaveLength(3);
  });
});
