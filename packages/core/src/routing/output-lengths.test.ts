import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEBATE_CALL_LIMITS } from './call-limits.ts';
import {
  DEFAULT_LENGTHS,
  fitLengths,
  LEARNT_AT_LEAST,
  LEARNT_FROM_LAST,
  learnLengths,
  type OutputSample,
  outputTokensAt,
  percentile,
  quotedCharsAt,
} from './output-lengths.ts';

const turns = (tokens: number[], chars = tokens.map((t) => t * 4)): OutputSample[] =>
  tokens.map((outputTokens, i) => ({
    outputTokens,
    quotedChars: chars[i] as number,
    citedChars: 0,
    agents: 3,
  }));

describe('percentiles of the learnt lengths', () => {
  it('reads the 10th, 50th and 90th percentile between the nearest ranks', () => {
    const sorted = Array.from({ length: 11 }, (_, i) => i * 10); // 0, 10 … 100
    expect(percentile(sorted, 10)).toBe(10);
    expect(percentile(sorted, 50)).toBe(50);
    expect(percentile(sorted, 90)).toBe(90);
    expect(percentile([100, 200], 25)).toBe(125);
    expect(percentile([7], 90)).toBe(7);
  });

  it('holds between the smallest and the largest value, and grows with p', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 5000 }), { minLength: 1, maxLength: 300 }),
        fc.integer({ min: 0, max: 99 }),
        (values, p) => {
          const sorted = [...values].sort((a, b) => a - b);
          const at = percentile(sorted, p);
          expect(at).toBeGreaterThanOrEqual(sorted[0] as number);
          expect(at).toBeLessThanOrEqual(sorted.at(-1) as number);
          expect(percentile(sorted, p + 1)).toBeGreaterThanOrEqual(at);
        },
      ),
    );
  });
});

describe('learning output lengths from recent calls', () => {
  it('keeps the default table until there are enough calls of the model and task', () => {
    const few = turns(Array.from({ length: LEARNT_AT_LEAST - 1 }, () => 90));
    expect(learnLengths('opening', few)).toBe(DEFAULT_LENGTHS.opening);
    const enough = learnLengths('opening', turns(Array.from({ length: LEARNT_AT_LEAST }, () => 90)));
    expect(enough.samples).toBe(LEARNT_AT_LEAST);
    expect(outputTokensAt(enough, 'opening', 3)).toEqual({ low: 90, expected: 90, high: 90 });
  });

  it('states the 10th–90th percentile around the average, for the answer and for the turn as quoted', () => {
    // 1 … 100 tokens, each quoted at 3 characters a token.
    const tokens = Array.from({ length: 100 }, (_, i) => i + 1);
    const learnt = learnLengths(
      'rebuttal',
      turns(
        tokens,
        tokens.map((t) => t * 3),
      ),
    );
    const output = outputTokensAt(learnt, 'rebuttal', 5);
    expect(output.expected).toBeCloseTo(50.5, 6);
    expect(output.low).toBeCloseTo(percentile(tokens, 10), 6);
    expect(output.high).toBeCloseTo(percentile(tokens, 90), 6);
    const quoted = quotedCharsAt(learnt, 5);
    expect(quoted.expected).toBeCloseTo(151.5, 6);
    expect(quoted.low).toBeCloseTo(3 * percentile(tokens, 10), 6);
  });

  it(`learns from the newest ${LEARNT_FROM_LAST} calls only`, () => {
    const recent = Array.from({ length: LEARNT_FROM_LAST }, () => 100);
    const old = Array.from({ length: 50 }, () => 5000);
    const learnt = learnLengths('opening', turns([...recent, ...old]));
    expect(learnt.samples).toBe(LEARNT_FROM_LAST);
    expect(outputTokensAt(learnt, 'opening', 3).expected).toBe(100);
  });

  it("fits the judge's verdict to the panel it sums up: a base and a length per agent", () => {
    const verdicts: OutputSample[] = [2, 3, 4, 5, 6, 7, 8].flatMap((agents) =>
      [0.9, 1, 1.1].map((noise) => ({
        outputTokens: (150 + 40 * agents) * noise,
        quotedChars: 0,
        citedChars: 0,
        agents,
      })),
    );
    const learnt = learnLengths('judge', [...verdicts, ...verdicts]);
    expect(learnt.outputTokens.perAgent).toBeCloseTo(40, 6);
    expect(outputTokensAt(learnt, 'judge', 2).expected).toBeCloseTo(230, 6);
    expect(outputTokensAt(learnt, 'judge', 8).expected).toBeCloseTo(470, 6);
    // The interval is the spread around the fit, whatever the panel: here ±10 %.
    expect(learnt.outputTokens.low).toBeCloseTo(0.9, 6);
    expect(learnt.outputTokens.high).toBeCloseTo(1.1, 6);
  });

  it('falls back to the average when the panel explains nothing (one size, or longer for fewer agents)', () => {
    const one = fitLengths(
      Array.from({ length: 30 }, (_, i) => ({ agents: 3, value: 100 + i })),
      true,
    );
    expect(one).toMatchObject({ base: 114.5, perAgent: 0 });
    const shrinking = fitLengths(
      [2, 4, 6, 8].map((agents) => ({ agents, value: 1000 - 50 * agents })),
      true,
    );
    expect(shrinking).toMatchObject({ base: 750, perAgent: 0 });
  });

  it("never states a length beyond the engine's limit for the task", () => {
    const long = learnLengths('classifier', turns(Array.from({ length: 40 }, (_, i) => 5 + i)));
    const { maxOutputTokens } = DEBATE_CALL_LIMITS.classifier;
    expect(outputTokensAt(long, 'classifier', 3).high).toBe(maxOutputTokens);
    expect(outputTokensAt(long, 'classifier', 3).expected).toBe(maxOutputTokens);
    expect(outputTokensAt(DEFAULT_LENGTHS.judge, 'judge', 50).high).toBe(
      DEBATE_CALL_LIMITS.judge.maxOutputTokens,
    );
  });
});
