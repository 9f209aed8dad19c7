import { citationTag, claimIdOf } from '@verdict/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildArgumentGraph, citationsIn, type SpokenClaim } from './argument-graph.ts';

/** A claim of attempt 1 as the engine's event would carry it. */
const claim = (
  round: number,
  agent: string,
  content = `${agent} speaks in round ${round}.`,
  targetAgent: string | null = null,
): SpokenClaim => ({
  claimId: claimIdOf({ attempt: 1, round, agent }),
  agent,
  round,
  kind: targetAgent === null ? 'argument' : 'rebuttal',
  targetAgent,
  content,
});

describe('citations in a turn', () => {
  it('are read as models write them: any case, singular, a colon, spaces; the id lower-cased', () => {
    const text =
      'I agree [supports a1-r1-cfo], and [Rebut: A1-R1-Risk-Analyst ] is wrong; [ support a2-r3-x ] too. ' +
      'Not a citation: [agrees a1-r1-cfo], [supports cfo], [supports a1-r1-].';
    expect(citationsIn(text)).toEqual([
      { kind: 'supports', claimId: 'a1-r1-cfo' },
      { kind: 'rebuts', claimId: 'a1-r1-risk-analyst' },
      { kind: 'supports', claimId: 'a2-r3-x' },
    ]);
  });

  it('read back exactly what citationTag writes', () => {
    const id = claimIdOf({ attempt: 2, round: 4, agent: "Devil's Advocate" });
    expect(citationsIn(`${citationTag('rebuts', id)} ${citationTag('supports', id)}`)).toEqual([
      { kind: 'rebuts', claimId: id },
      { kind: 'supports', claimId: id },
    ]);
  });
});

describe('the argument graph', () => {
  it("links a rebuttal to its target's claim of the round before, and cited claims of earlier rounds", () => {
    const spoken = [
      claim(1, 'CFO'),
      claim(1, 'Risk Analyst'),
      claim(1, 'Engineer'),
      claim(
        2,
        'CFO',
        'Wrong [rebuts a1-r1-risk-analyst], and as said [supports a1-r1-engineer].',
        'Risk Analyst',
      ),
      claim(2, 'Risk Analyst', 'No [rebuts a1-r1-cfo].', 'CFO'),
      claim(3, 'Engineer', 'Agreed [supports a1-r2-cfo] [supports a1-r1-cfo].', 'Risk Analyst'),
    ];
    const graph = buildArgumentGraph(spoken, {});
    expect(graph.edges).toEqual([
      // The target's rebuts edge and the same citation are one edge.
      { from: 'a1-r2-cfo', to: 'a1-r1-risk-analyst', kind: 'rebuts' },
      { from: 'a1-r2-cfo', to: 'a1-r1-engineer', kind: 'supports' },
      { from: 'a1-r2-risk-analyst', to: 'a1-r1-cfo', kind: 'rebuts' },
      { from: 'a1-r3-engineer', to: 'a1-r2-risk-analyst', kind: 'rebuts' },
      // Any earlier round may be cited, not only the one before.
      { from: 'a1-r3-engineer', to: 'a1-r2-cfo', kind: 'supports' },
      { from: 'a1-r3-engineer', to: 'a1-r1-cfo', kind: 'supports' },
    ]);
  });

  it('leaves out citations of unknown claims, of the same or a later round, of itself; and duplicates', () => {
    const spoken = [
      claim(1, 'CFO'),
      claim(1, 'Engineer', 'I cite ahead [supports a1-r2-cfo] and my peer [rebuts a1-r1-cfo].'),
      claim(
        2,
        'CFO',
        '[supports a1-r2-cfo] [supports a1-r1-nobody] [supports a2-r1-engineer] ' +
          '[supports a1-r1-engineer] [SUPPORTS a1-r1-engineer] [rebuts a1-r1-engineer]',
        'Engineer',
      ),
    ];
    expect(buildArgumentGraph(spoken, {}).edges).toEqual([
      { from: 'a1-r2-cfo', to: 'a1-r1-engineer', kind: 'rebuts' },
      { from: 'a1-r2-cfo', to: 'a1-r1-engineer', kind: 'supports' },
    ]);
  });

  it('gives no rebuts edge when the target did not speak in the round before', () => {
    const spoken = [claim(1, 'CFO'), claim(2, 'CFO', 'Alone.', 'Engineer')];
    expect(buildArgumentGraph(spoken, {}).edges).toEqual([]);
  });

  it('weighs each claim by its votes (0 without), ignoring votes on claims not in the graph', () => {
    const spoken = [claim(1, 'CFO'), claim(1, 'Engineer')];
    const graph = buildArgumentGraph(spoken, {
      'a1-r1-cfo': { agree: 3, disagree: 5 },
      'a0-r1-gone': { agree: 9, disagree: 0 },
    });
    expect(graph.claims.map((c) => [c.claimId, c.weight])).toEqual([
      ['a1-r1-cfo', { agree: 3, disagree: 5, net: -2 }],
      ['a1-r1-engineer', { agree: 0, disagree: 0, net: 0 }],
    ]);
  });

  it('keeps the first of a claim stored twice', () => {
    const graph = buildArgumentGraph([claim(1, 'CFO', 'first'), claim(1, 'CFO', 'again')], {});
    expect(graph.claims.map((c) => c.content)).toEqual(['first']);
  });
});

const AGENTS = ['CFO', 'Risk Analyst', 'Engineer', 'Customer Advocate'];

/** A debate: for each round, some agents speak; from round 2 each may name a target and cite any ids. */
const debates = fc
  .array(fc.subarray(AGENTS, { minLength: 1 }), { minLength: 1, maxLength: 4 })
  .chain((rounds) => {
    const ids = rounds.flatMap((agents, i) =>
      agents.map((agent) => claimIdOf({ attempt: 1, round: i + 1, agent })),
    );
    const anyId = fc.oneof(fc.constantFrom(...ids), fc.constantFrom('a1-r9-nobody', 'a2-r1-cfo'));
    const citation = fc.tuple(fc.constantFrom('supports', 'rebuts', 'Support:', 'REBUT'), anyId);
    const turns = rounds.flatMap((agents, i) =>
      agents.map((agent) =>
        fc
          .record({
            target:
              i === 0
                ? fc.constant(null)
                : fc.option(fc.constantFrom(...(rounds[i - 1] ?? [])), { nil: null }),
            citations: fc.array(citation, { maxLength: 5 }),
          })
          .map(({ target, citations }) =>
            claim(i + 1, agent, citations.map(([kind, id]) => `[${kind} ${id}]`).join(' blah '), target),
          ),
      ),
    );
    return fc.tuple(...turns);
  });

describe('the argument graph, for any debate', () => {
  it('connects only existing claims, never one to itself, only to earlier rounds, each edge once', () => {
    fc.assert(
      fc.property(debates, (spoken) => {
        const { claims, edges } = buildArgumentGraph(spoken, {});
        const round = new Map(claims.map((c) => [c.claimId, c.round]));
        for (const edge of edges) {
          expect(round.has(edge.from) && round.has(edge.to)).toBe(true);
          expect(edge.from).not.toBe(edge.to);
          expect(round.get(edge.to)).toBeLessThan(round.get(edge.from) as number);
        }
        const keys = edges.map((e) => `${e.from} ${e.to} ${e.kind}`);
        expect(new Set(keys).size).toBe(keys.length);
      }),
    );
  });

  it("gives every rebuttal a rebuts edge to its target's claim of the round before", () => {
    fc.assert(
      fc.property(debates, (spoken) => {
        const { edges } = buildArgumentGraph(spoken, {});
        for (const turn of spoken.filter((c) => c.targetAgent !== null)) {
          const to = claimIdOf({ attempt: 1, round: turn.round - 1, agent: turn.targetAgent as string });
          expect(edges).toContainEqual({ from: turn.claimId, to, kind: 'rebuts' });
        }
      }),
    );
  });

  it('has an edge for every cited claim of an earlier round, and none the turns do not account for', () => {
    fc.assert(
      fc.property(debates, (spoken) => {
        const { edges } = buildArgumentGraph(spoken, {});
        const roundOf = new Map(spoken.map((c) => [c.claimId, c.round]));
        const expected = new Set<string>();
        for (const turn of spoken) {
          if (turn.targetAgent !== null) {
            expected.add(
              `${turn.claimId} ${claimIdOf({ attempt: 1, round: turn.round - 1, agent: turn.targetAgent })} rebuts`,
            );
          }
          for (const { kind, claimId } of citationsIn(turn.content)) {
            if ((roundOf.get(claimId) ?? Number.POSITIVE_INFINITY) < turn.round) {
              expected.add(`${turn.claimId} ${claimId} ${kind}`);
            }
          }
        }
        expect(new Set(edges.map((e) => `${e.from} ${e.to} ${e.kind}`))).toEqual(expected);
      }),
    );
  });
});
