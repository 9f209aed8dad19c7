import { describe, expect, it } from 'vitest';
import { type Claim, layoutArgumentGraph, linksOf, rebuttalEdges } from './argument-graph-layout.ts';

const claim = (round: number, agent: string, targetAgent: string | null = null): Claim => ({
  claimId: `1-${round}-${agent}`,
  agent,
  round,
  kind: targetAgent ? 'rebuttal' : 'argument',
  targetAgent,
});

const panel = [
  claim(1, 'Ada'),
  claim(1, 'Bo'),
  claim(1, 'Cy'),
  claim(2, 'Ada', 'Bo'),
  claim(2, 'Bo', 'Cy'),
  claim(2, 'Cy', 'Ada'),
  claim(3, 'Ada', 'Cy'),
];

describe('the argument graph', () => {
  it('links each rebuttal to the claim its target agent made in the round before', () => {
    expect(rebuttalEdges(panel)).toEqual([
      { from: '1-2-Ada', to: '1-1-Bo' },
      { from: '1-2-Bo', to: '1-1-Cy' },
      { from: '1-2-Cy', to: '1-1-Ada' },
      { from: '1-3-Ada', to: '1-2-Cy' },
    ]);
    // A target that said nothing in the round before (it failed) has nothing to link to.
    expect(rebuttalEdges([claim(1, 'Ada'), claim(2, 'Bo', 'Cy')])).toEqual([]);
  });

  it('lays the rounds out left to right, each claim inside its round, every link routed', async () => {
    const laid = await layoutArgumentGraph(panel);
    expect(laid.rounds.map((r) => r.round)).toEqual([1, 2, 3]);
    const [first, second, third] = laid.rounds;
    expect(first && second && third && first.box.x < second.box.x && second.box.x < third.box.x).toBe(true);
    for (const c of laid.claims) {
      const round = laid.rounds.find((r) => r.round === c.round)?.box;
      expect(round && c.box.x >= round.x && c.box.x + c.box.width <= round.x + round.width, c.claimId).toBe(
        true,
      );
    }
    expect(laid.edges.map((e) => [e.from, e.to])).toEqual(rebuttalEdges(panel).map((e) => [e.from, e.to]));
    expect(laid.edges.every((e) => e.d.startsWith('M'))).toBe(true);
    expect(await layoutArgumentGraph([...panel])).toBe(laid);
  });

  it('adds the cited links once, only between claims shown, never a claim to itself', async () => {
    const cited = [
      { from: '1-2-Ada', to: '1-1-Bo', kind: 'rebuts' as const },
      { from: '1-2-Ada', to: '1-1-Cy', kind: 'supports' as const },
      { from: '1-3-Ada', to: '1-3-Ada', kind: 'supports' as const },
      { from: '1-3-Ada', to: '1-1-Nobody', kind: 'supports' as const },
    ];
    expect(linksOf(panel, cited)).toEqual([
      ...rebuttalEdges(panel).map((e) => ({ ...e, kind: 'rebuts' })),
      { from: '1-2-Ada', to: '1-1-Cy', kind: 'supports' },
    ]);
    const laid = await layoutArgumentGraph(panel, cited);
    expect(laid.edges.filter((e) => e.kind === 'supports').map((e) => [e.from, e.to])).toEqual([
      ['1-2-Ada', '1-1-Cy'],
    ]);
    expect(laid.edges).toHaveLength(5);
  });
});
