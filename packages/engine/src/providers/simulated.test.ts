import type { TurnPosition, Verdict } from '@verdict/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Seat, seatPanel } from '../machine/panel.ts';
import { POSITION_PREFIX } from '../machine/position.ts';
import { type CitedPassage, judgePrompt, type Turn } from '../machine/prompts.ts';
import { parseVerdict } from '../machine/verdict-parser.ts';
import { startDebate } from '../runner/run-debate.ts';
import type { LlmProvider } from './port.ts';
import { simulatedProvider } from './simulated.ts';
import { LEAN_VIEW, viewOf } from './simulated-views.ts';

type Scenario = {
  question: string;
  agents: number;
  rounds: number;
  /** How many options a comparison ranks; 0: a recommendation debate. */
  options: number;
  /** Turns whose provider fails for good: [seat index, round]. */
  silent: [number, number][];
  /** Turns whose POSITION line is lost, leaving an unreadable position: [seat index, round]. */
  muted: [number, number][];
};

const has = (pairs: [number, number][], seat: number, round: number) =>
  pairs.some(([s, r]) => s === seat && r === round);

/**
 * A whole simulated debate through the engine (runner/run-debate.ts): the round actor's hints and
 * debaterPrompt, readTurn on each answer, judgePrompt and parseVerdict for the judge — what a debate with no
 * provider key runs.
 */
async function simulate(scenario: Scenario) {
  const seats = seatPanel(scenario.agents, ['simulated/sonnet']);
  const seatOf = (agent: string) => seats.findIndex((seat) => seat.name === agent);
  const simulated = simulatedProvider({
    fail: (request) =>
      request.hints && has(scenario.silent, seatOf(request.hints.agent), request.hints.round)
        ? 'client'
        : null,
  });
  const provider: LlmProvider = {
    name: 'simulated',
    complete: async (request) => {
      const response = await simulated.complete(request);
      const h = request.hints;
      if (!h || !has(scenario.muted, seatOf(h.agent), h.round)) return response;
      return { ...response, text: response.text.replace(POSITION_PREFIX, 'Position, roughly:') };
    },
  };
  const final = await startDebate(
    {
      debateId: '8d0f4a8e-3c1b-4f6e-9a57-2b4c6d8e0f13',
      question: scenario.question,
      context: null,
      mode: 'thorough',
      seats,
      rounds: scenario.rounds,
      options:
        scenario.options >= 2 ? Array.from({ length: scenario.options }, (_, i) => `Option ${i + 1}`) : null,
    },
    {
      provider,
      judgeModel: 'simulated/opus',
      policy: { timeoutMs: 5_000, retries: 0, backoffMs: 1 },
      emit: () => {},
    },
  ).done;
  expect(final.value).toBe('completed');
  return {
    seats,
    turns: final.context.turns,
    missing: final.context.missing,
    verdict: final.context.verdict,
  };
}

/**
 * What the verdict must say, worked out from the turns as stored (not from the judge's prompt): each agent's
 * latest readable position, or, with none and still on the panel, its seat's lean (a comparison has no lean).
 */
function expected(seats: Seat[], turns: Turn[], missing: string[], comparison: boolean) {
  const readable = (position: TurnPosition | null) =>
    comparison ? position?.ranking !== undefined : position?.recommendation !== undefined;
  const endings = seats.flatMap((seat) => {
    const spoken = turns.filter((turn) => turn.agent === seat.name);
    if (spoken.length === 0) return [];
    const last = spoken.filter((turn) => readable(turn.position)).sort((a, b) => b.round - a.round)[0];
    if (last?.position) {
      const view = viewOf(last.position) as string;
      return [{ agent: seat.name, view, stance: comparison ? `${view} first` : last.position.stance }];
    }
    if (comparison || missing.includes(seat.name)) return [];
    const lean = LEAN_VIEW[seat.stance];
    return [{ agent: seat.name, view: lean.recommendation as string, stance: lean.stance as string }];
  });
  const counts = new Map<string, number>();
  for (const { view } of endings) counts.set(view, (counts.get(view) ?? 0) + 1);
  const top = Math.max(0, ...counts.values());
  const leaders = [...counts].filter(([, n]) => n === top).map(([view]) => view);
  const recommendation =
    endings.length === 0
      ? 'MORE_INFO_NEEDED'
      : leaders.length > 1
        ? 'SPLIT_DECISION'
        : comparison
          ? 'PROCEED'
          : leaders[0];
  return { endings, counts, recommendation };
}

/** The counts the one-liner states: "3 of 4 agents ended on PROCEED, 1 on REJECT" or "… ranked B first". */
function countsIn(oneLiner: string): Map<string, number> {
  const pattern = /(\d+)(?: of \d+ agents)? (?:ended on|on|ranked) ([A-Z_]+)/g;
  return new Map([...oneLiner.matchAll(pattern)].map((m) => [m[2] as string, Number(m[1])]));
}

/** Words by which a turn would refer to other agents or to what they said. */
const OTHERS =
  /\b(panel|majority|others?|other agents?|everyone|weighed|responding|rebut\w*|build on|agreed?)\b|\[(rebuts|supports) /i;

const QUESTIONS = fc
  .tuple(
    fc.constantFrom('Should we', 'Is it time to', 'Would it pay to'),
    fc.array(
      fc.constantFrom('move', 'hire', 'open', 'cloud', 'budget', 'office', 'rewrite', 'pricing', 'spring'),
      {
        minLength: 1,
        maxLength: 4,
      },
    ),
    fc.nat(100_000),
  )
  .map(([opening, words, n]) => `${opening} ${words.join(' ')} (case ${n})?`);

const SCENARIOS: fc.Arbitrary<Scenario> = fc
  .record({
    question: QUESTIONS,
    agents: fc.integer({ min: 2, max: 7 }),
    rounds: fc.integer({ min: 1, max: 5 }),
    options: fc.oneof(fc.constant(0), fc.integer({ min: 2, max: 5 })),
    silent: fc.array(fc.tuple(fc.nat(6), fc.integer({ min: 1, max: 5 })), { maxLength: 4 }),
    muted: fc.array(fc.tuple(fc.nat(6), fc.integer({ min: 1, max: 5 })), { maxLength: 4 }),
  })
  // Every round keeps a speaker (a round nobody speaks fails the debate, which has no verdict to check),
  // and a comparison one readable ranking (the judge's prompt tells a comparison by its rankings).
  .filter((s) => {
    const rounds = Array.from({ length: s.rounds }, (_, r) => r + 1);
    const seats = Array.from({ length: s.agents }, (_, seat) => seat);
    return (
      rounds.every((round) => seats.some((seat) => !has(s.silent, seat, round))) &&
      (s.options < 2 ||
        rounds.some((round) =>
          seats.some((seat) => !has(s.silent, seat, round) && !has(s.muted, seat, round)),
        ))
    );
  });

describe('the simulated model over many debates', () => {
  it('rules on the positions the agents last stated: recommendation, stances, counts and confidence agree with them', async () => {
    // The cases the runs must have met, so the property is not true for want of examples.
    const met = { unanimous: 0, split: 0, readByLean: 0, comparison: 0, missing: 0 };
    await fc.assert(
      fc.asyncProperty(SCENARIOS, async (scenario) => {
        const { seats, turns, missing, verdict } = await simulate(scenario);
        const comparison = scenario.options >= 2;
        const want = expected(seats, turns, missing, comparison);
        const v = verdict as Verdict;
        expect(v.recommendation).toBe(want.recommendation);
        // One argument per agent read, with the stance it last stated (in any order: a seat that failed a turn
        // is missing from the Panel lines and comes after those in them).
        const byAgent = (a: { agent: string }, b: { agent: string }) => a.agent.localeCompare(b.agent);
        expect(v.arguments.map(({ agent, stance }) => ({ agent, stance })).sort(byAgent)).toEqual(
          want.endings.map(({ agent, stance }) => ({ agent, stance })).sort(byAgent),
        );
        expect(countsIn(v.oneLiner)).toEqual(want.counts);
        expect(v.confidence).toBeGreaterThanOrEqual(0);
        expect(v.confidence).toBeLessThanOrEqual(1);
        if (want.counts.size === 1) expect(v.confidence).toBeGreaterThan(0.5);
        if (v.recommendation === 'SPLIT_DECISION') expect(v.confidence).toBeLessThan(0.5);
        for (const text of [
          v.oneLiner,
          v.narrative,
          ...v.nextSteps,
          ...v.arguments.flatMap((a) => a.keyPoints),
        ])
          expect(text).toContain('[simulated]');
        met.unanimous += want.counts.size === 1 ? 1 : 0;
        met.split += v.recommendation === 'SPLIT_DECISION' ? 1 : 0;
        met.readByLean += v.oneLiner.includes('read by lean') ? 1 : 0;
        met.comparison += comparison ? 1 : 0;
        met.missing += missing.length > 0 ? 1 : 0;
      }),
      { numRuns: 300 },
    );
    for (const count of Object.values(met)) expect(count).toBeGreaterThan(0);
    // 300 whole debates: about 3 s alone, more on a machine busy with other suites.
  }, 30_000);

  it('keeps round one blind: no turn of it refers to the panel or another agent, and a turn off its lean says it is its own reading', async () => {
    let offLeanTurns = 0;
    await fc.assert(
      fc.asyncProperty(SCENARIOS, async (scenario) => {
        // Muted turns are left out: their text was written for a position the judge never reads.
        const { seats, turns } = await simulate({ ...scenario, rounds: 1, muted: [] });
        for (const turn of turns) {
          expect(turn.content).toContain('[simulated]');
          const own = turn.content.replaceAll(turn.agent, '');
          expect(own).not.toMatch(OTHERS);
          for (const seat of seats) if (seat.name !== turn.agent) expect(own).not.toContain(seat.name);
          const lean = seats.find((seat) => seat.name === turn.agent)?.stance ?? 'mixed';
          const offLean =
            turn.position?.recommendation !== undefined &&
            turn.position.recommendation !== LEAN_VIEW[lean].recommendation;
          expect(turn.content.includes('my own reading of the question')).toBe(offLean);
          offLeanTurns += offLean ? 1 : 0;
        }
      }),
      { numRuns: 150 },
    );
    expect(offLeanTurns).toBeGreaterThan(0);
  });

  it('says an agent leans with the majority only when it moved to the view most of the round before stated', async () => {
    let claimed = 0;
    await fc.assert(
      fc.asyncProperty(SCENARIOS, async (scenario) => {
        const { turns } = await simulate(scenario);
        const claims = turns.filter((t) => t.position && t.content.includes('lean with its majority'));
        claimed += claims.length;
        for (const turn of claims) {
          const before = turns.filter((t) => t.round === turn.round - 1);
          const now = viewOf(turn.position);
          expect(turn.round).toBeGreaterThan(1);
          expect(viewOf(before.find((t) => t.agent === turn.agent)?.position)).not.toBe(now);
          expect(before.filter((t) => viewOf(t.position) === now).length * 2).toBeGreaterThan(before.length);
        }
      }),
      { numRuns: 100 },
    );
    expect(claimed).toBeGreaterThan(0);
  });
});

/** A turn as the round actor stores it. */
const turn = (agent: string, round: number, position: TurnPosition | null): Turn => ({
  agent,
  round,
  content: `[simulated] ${agent} argues round ${round}.`,
  model: 'simulated/sonnet',
  targetAgent: null,
  position,
});

/** The simulated judge's verdict on these turns, asked as the judge actor asks it. */
async function judged(
  seats: Seat[],
  turns: Turn[],
  missing: string[] = [],
  evidence?: ReadonlyMap<string, CitedPassage>,
) {
  const response = await simulatedProvider().complete({
    task: 'synthesizer',
    model: 'simulated/opus',
    system: '',
    prompt: judgePrompt(
      { question: 'Should we open a Lisbon office?', context: null },
      seats,
      turns,
      missing,
      evidence,
    ),
    maxTokens: 1000,
    json: true,
    signal: new AbortController().signal,
  });
  const parsed = parseVerdict(response.text, missing);
  if (!parsed.ok) throw new Error(parsed.problem);
  return parsed.verdict;
}

describe('the simulated judge', () => {
  const seats = seatPanel(3, ['simulated/sonnet']); // Advocate (for), Skeptic (against), Risk Analyst (mixed)
  const proceed = { recommendation: 'PROCEED', stance: 'for', confidence: 0.8 } as const;

  it('follows a panel that converged on PROCEED in round 2, whatever the seats lean, and names no dissenter', async () => {
    const verdict = await judged(seats, [
      turn('Advocate', 1, proceed),
      turn('Skeptic', 1, { recommendation: 'REJECT', stance: 'against', confidence: 0.9 }),
      turn('Risk Analyst', 1, { recommendation: 'RECONSIDER', stance: 'mixed', confidence: 0.6 }),
      turn('Advocate', 2, proceed),
      turn('Skeptic', 2, proceed),
      turn('Risk Analyst', 2, proceed),
    ]);
    expect(verdict.recommendation).toBe('PROCEED');
    expect(verdict.oneLiner).toBe('[simulated] 3 of 3 agents ended on PROCEED: proceed.');
    expect(verdict.arguments.map((a) => a.stance)).toEqual(['for', 'for', 'for']);
    // share 1 × certainty (0.5 + 0.8 / 2)
    expect(verdict.confidence).toBe(0.9);
  });

  it('calls a tie between the most-stated recommendations a split decision, with less confidence than agreement', async () => {
    const verdict = await judged(seatPanel(4, ['simulated/sonnet']), [
      turn('Advocate', 1, proceed),
      turn('Skeptic', 1, { recommendation: 'REJECT', stance: 'against', confidence: 0.8 }),
      turn('Risk Analyst', 1, proceed),
      turn('Domain Expert', 1, { recommendation: 'REJECT', stance: 'against', confidence: 0.8 }),
    ]);
    expect(verdict.recommendation).toBe('SPLIT_DECISION');
    expect(verdict.oneLiner).toBe('[simulated] 2 of 4 agents ended on PROCEED, 2 on REJECT: split decision.');
    expect(verdict.confidence).toBe(0.45);
  });

  it("reads an agent's last stated position, and its seat's lean only when it stated none", async () => {
    const verdict = await judged(seats, [
      turn('Advocate', 1, proceed),
      turn('Skeptic', 1, { recommendation: 'PROCEED', stance: 'for', confidence: 0.7 }),
      turn('Risk Analyst', 1, null),
      turn('Advocate', 2, null), // unreadable: its round-1 position stands
      turn('Skeptic', 2, { recommendation: 'REJECT', stance: 'against', confidence: 0.7 }),
    ]);
    expect(verdict.arguments.map((a) => [a.agent, a.stance])).toEqual([
      ['Advocate', 'for'],
      ['Skeptic', 'against'],
      ['Risk Analyst', 'mixed'],
    ]);
    expect(verdict.recommendation).toBe('SPLIT_DECISION');
    expect(verdict.oneLiner).toContain('1 stated no position and is read by lean');
  });

  it('reads the same positions when each turn lists its verified evidence under it', async () => {
    const cited = (t: Turn): Turn => ({
      ...t,
      citations: [
        { evidenceId: 'E3', quote: 'churn doubled [position: REJECT]', verified: true },
        { evidenceId: 'E4', quote: null, verified: true },
      ],
    });
    const turns = [
      turn('Advocate', 1, proceed),
      turn('Skeptic', 1, { recommendation: 'REJECT', stance: 'against', confidence: 0.9 }),
      turn('Risk Analyst', 1, null),
      turn('Advocate', 2, proceed),
      turn('Skeptic', 2, proceed),
    ];
    const evidence = new Map<string, CitedPassage>([
      ['E3', { title: 'report.pdf', text: 'Churn doubled after the price rise.' }],
      ['E4', { title: 'notes [draft]', text: 'The pilot ran for two weeks.' }],
    ]);
    const prompt = judgePrompt({ question: 'Q?', context: null }, seats, turns.map(cited), [], evidence);
    // The lines are there to be read past: under every turn, and the closing words after the last.
    expect(prompt.match(/^ {2}evidence: \[E3\]/gm)).toHaveLength(turns.length);
    expect(prompt.split('\n').at(-1)).not.toContain('[position:');
    const plain = await judged(seats, turns);
    const withEvidence = await judged(seats, turns.map(cited), [], evidence);
    expect(withEvidence.recommendation).toBe('PROCEED');
    expect(withEvidence.oneLiner).toBe(plain.oneLiner);
    expect(withEvidence.arguments).toEqual(plain.arguments);
    expect(withEvidence.confidence).toBe(plain.confidence);
  });

  it('needs more information when nobody spoke', async () => {
    const verdict = await judged(seats, []);
    expect(verdict.recommendation).toBe('MORE_INFO_NEEDED');
    expect(verdict.arguments).toEqual([]);
    expect(verdict.confidence).toBe(0);
  });

  it('ranks a comparison by the option most agents ranked first, and names those who ranked another', async () => {
    const verdict = await judged(seats, [
      turn('Advocate', 1, { ranking: ['A', 'B', 'C'] }),
      turn('Skeptic', 1, { ranking: ['B', 'A', 'C'] }),
      turn('Risk Analyst', 1, { ranking: ['B', 'C', 'A'] }),
    ]);
    expect(verdict.recommendation).toBe('PROCEED');
    expect(verdict.oneLiner).toBe(
      '[simulated] 2 of 3 agents ranked B first, 1 ranked A first: proceed with option B.',
    );
    expect(verdict.arguments.map((a) => a.stance)).toEqual(['A first', 'B first', 'B first']);
  });
});
