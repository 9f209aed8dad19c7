import { claimIdOf, type TurnPosition } from '@verdict/contracts';
import {
  type BriefSize,
  classifierCallChars,
  debaterCallChars,
  documentChars,
  judgeCallChars,
  PROMPT_CHARS,
} from '@verdict/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seatPanel } from '../machine/panel.ts';
import {
  type CitableTurn,
  type CitedPassage,
  type DebateBrief,
  debaterPrompt,
  debaterSystemPrompt,
  EVIDENCE_INSTRUCTION,
  JUDGE_SYSTEM_PROMPT,
  judgePrompt,
  type Turn,
} from '../machine/prompts.ts';
import { documentsOverheadChars } from '../providers/documents.ts';
import { CLASSIFIER_SYSTEM } from './classify.ts';

/**
 * The cost estimate (core routing/prompt-sizes.ts) sizes each prompt from what goes into it, with the
 * engine's templates written down as numbers (core cannot import the engine). Here the engine's real prompts
 * are built for panels, rounds and briefs of every shape and held to those sizes, so a change of template
 * that the estimate does not follow fails here. Seats differ by their names, so the estimate is held to a
 * round's prompts together (every seat speaks each round) and to each one more loosely.
 */

/** Text of exactly `length` characters, in words. */
const words = (length: number) =>
  'lorem ipsum dolor sit amet '.repeat(Math.ceil(length / 27) + 1).slice(0, length);

const POSITIONS: TurnPosition[] = [
  { recommendation: 'PROCEED', stance: 'for', confidence: 0.72 },
  { recommendation: 'REJECT', stance: 'against', confidence: 0.8 },
  { recommendation: 'RECONSIDER', stance: 'mixed', confidence: 0.64 },
];

const shape = fc.record({
  agents: fc.integer({ min: 2, max: 8 }),
  rounds: fc.integer({ min: 1, max: 5 }),
  question: fc.integer({ min: 10, max: 2000 }),
  context: fc.option(fc.integer({ min: 1, max: 6000 }), { nil: null }),
  options: fc.oneof(
    fc.constant<number[]>([]),
    fc.array(fc.integer({ min: 2, max: 60 }), { minLength: 2, maxLength: 5 }),
  ),
  evidence: fc.boolean(),
  /** Each turn's text, seat by seat, round by round (cycled). */
  turns: fc.array(fc.integer({ min: 40, max: 2400 }), { minLength: 40, maxLength: 40 }),
});
type Shape = typeof shape extends fc.Arbitrary<infer T> ? T : never;

function debate(s: Shape) {
  const brief: DebateBrief = {
    question: words(s.question),
    context: s.context === null ? null : words(s.context),
    options: s.options.length > 0 ? s.options.map(words) : null,
  };
  const size: BriefSize = {
    question: s.question,
    context: s.context,
    options: s.options,
    documents: 0,
    evidence: s.evidence,
  };
  const seats = seatPanel(s.agents, ['anthropic:claude-sonnet-5-5']);
  const lengthOf = (round: number, seat: number) => s.turns[((round - 1) * s.agents + seat) % 40] as number;
  const turnsOf = (round: number): CitableTurn[] =>
    seats.map((seat, i) => ({
      agent: seat.name,
      round,
      content: words(lengthOf(round, i)),
      model: seat.model,
      targetAgent: null,
      position:
        s.options.length > 0
          ? { ranking: s.options.map((_, o) => String.fromCharCode(65 + ((o + i) % s.options.length))) }
          : (POSITIONS[i % POSITIONS.length] as TurnPosition),
      claimId: claimIdOf({ attempt: 1, round, agent: seat.name }),
    }));
  return { brief, size, seats, lengthOf, turnsOf };
}

/**
 * Within `share` of the real size, or `slack` characters: a seat's name and role are a few characters off
 * the panel's mean, about 5 tokens a seat at most.
 */
const within = (estimated: number, real: number, share: number, slack: number) =>
  expect(Math.abs(estimated - real), `estimated ${estimated}, real ${real}`).toBeLessThanOrEqual(
    Math.max(real * share, slack),
  );

describe('the prompt sizes the cost estimate counts', () => {
  it("agree with every debater's prompt, in every round, for any panel and brief", () => {
    fc.assert(
      fc.property(shape, (s) => {
        const { brief, size, seats, lengthOf, turnsOf } = debate(s);
        for (let round = 1; round <= s.rounds; round++) {
          const previous = round > 1 ? turnsOf(round - 1) : [];
          const quoted = previous.map((_, i) => lengthOf(round - 1, i));
          const estimated = debaterCallChars(size, round, quoted);
          const real = seats.map(
            (seat) =>
              debaterSystemPrompt(seat).length +
              debaterPrompt(brief, round, previous, [], [], s.evidence).length,
          );
          within(
            estimated * seats.length,
            real.reduce((a, b) => a + b, 0),
            0.01,
            20 * seats.length,
          );
          for (const one of real) within(estimated, one, 0.02, 32);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("agree with the judge's prompt over the whole transcript, each turn with its stated position", () => {
    fc.assert(
      fc.property(shape, (s) => {
        const { brief, size, seats, lengthOf, turnsOf } = debate({ ...s, evidence: false });
        const turns: Turn[] = Array.from({ length: s.rounds }, (_, r) => turnsOf(r + 1)).flat();
        const lengths = turns.map((turn) =>
          lengthOf(
            turn.round,
            seats.findIndex((x) => x.name === turn.agent),
          ),
        );
        const real = JUDGE_SYSTEM_PROMPT.length + judgePrompt(brief, seats, turns, []).length;
        within(judgeCallChars(size, seats.length, lengths), real, 0.01, 20 * seats.length);
      }),
      { numRuns: 300 },
    );
  });

  it("agree with the classifier's, exactly", () => {
    const question = words(321);
    expect(classifierCallChars(question.length)).toBe(CLASSIFIER_SYSTEM.length + question.length);
  });

  it('count the attachments a prompt carries as excerpts, with their headings and fences', () => {
    const brief = { question: words(100), context: null };
    const attached = [
      { name: 'board-minutes.pdf', text: words(7000) },
      { name: 'https://example.com/market-report', text: words(2500) },
    ];
    const added = debaterPrompt(brief, 1, [], [], attached).length - debaterPrompt(brief, 1, [], []).length;
    const sizes = attached.map((document) => ({ name: document.name.length, text: document.text.length }));
    expect(documentChars(sizes, 20_000)).toBe(added);
  });

  it("count the evidence engine's instructions to debaters and to the judge", () => {
    const brief = { question: words(100), context: null };
    const withEvidence = debaterPrompt(brief, 1, [], [], [], true).length;
    expect(withEvidence - debaterPrompt(brief, 1, [], []).length).toBe(
      PROMPT_CHARS.debater.evidenceInstruction,
    );
    expect(EVIDENCE_INSTRUCTION.length + 2).toBe(PROMPT_CHARS.debater.evidenceInstruction);
    const seats = seatPanel(2, ['m']);
    const quote = 'churn doubled after the last price rise';
    const turn: Turn = {
      agent: seats[0]?.name ?? '',
      round: 1,
      content: `"${quote}" [E1], and the rest [E2].`,
      model: 'm',
      targetAgent: null,
      position: null,
      citations: [
        { evidenceId: 'E1', quote, verified: true },
        { evidenceId: 'E2', quote: null, verified: true },
      ],
    };
    // Sources titled at the 10 characters the estimate takes a title to be.
    const passages = new Map<string, CitedPassage>([
      ['E1', { title: 'report.pdf', text: words(300) }],
      ['E2', { title: 'minutes.md', text: words(300) }],
    ]);
    const cited = judgePrompt(brief, seats, [turn], [], passages).length;
    const lines = quote.length + 200 + 2 * PROMPT_CHARS.judge.perCitation;
    expect(cited - judgePrompt(brief, seats, [turn], []).length).toBe(
      PROMPT_CHARS.judge.evidenceInstruction + lines,
    );
  });

  it('count each passage a provider is sent in its block, with its id, title and separators', () => {
    const passages = Array.from({ length: 5 }, (_, i) => ({
      evidenceId: `E${i + 1}`,
      title: 'board-minutes.pdf',
      text: words(1200),
    }));
    const framing =
      documentsOverheadChars(passages) - passages.reduce((t, p) => t + p.title.length + p.text.length, 0);
    expect(framing).toBe(passages.length * PROMPT_CHARS.perPassage);
  });
});
