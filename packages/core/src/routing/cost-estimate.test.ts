import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEBATE_CALL_LIMITS } from './call-limits.ts';
import { estimateDebateCost, PROMPT_OVERHEAD_TOKENS, textTokens } from './cost-estimate.ts';
import { type DebateModels, debateModelsFor } from './debate-models.ts';
import { callCostNanoUsd, usdOfNano } from './prices.ts';

const PAID: DebateModels = {
  simulated: false,
  panel: ['anthropic:claude-sonnet-5-5', 'openai:gpt-6.1-terra'],
  judge: 'anthropic:claude-opus-5-5',
  classifier: 'anthropic:claude-haiku-5-5',
};

const shape = fc.record({
  question: fc.string({ minLength: 10, maxLength: 2000 }),
  context: fc.option(fc.string({ minLength: 1, maxLength: 5000 }), { nil: null }),
  agents: fc.integer({ min: 2, max: 7 }),
  rounds: fc.integer({ min: 1, max: 5 }),
});

/** One debate as it might really go: each call's answer any length up to its limit, the judge right or not. */
const run = fc.record({
  answers: fc.array(fc.integer({ min: 1, max: DEBATE_CALL_LIMITS.debater.maxOutputTokens }), {
    minLength: 35,
    maxLength: 35,
  }),
  judgeAttempts: fc.integer({ min: 1, max: DEBATE_CALL_LIMITS.judge.attempts }),
  judgeAnswer: fc.integer({ min: 1, max: DEBATE_CALL_LIMITS.judge.maxOutputTokens }),
  classifierAnswer: fc.integer({ min: 1, max: DEBATE_CALL_LIMITS.classifier.maxOutputTokens }),
});

describe('the cost estimate', () => {
  it('orders low ≤ expected ≤ high, and its models add up to its totals', () => {
    fc.assert(
      fc.property(shape, (s) => {
        const estimate = estimateDebateCost({ ...s, models: PAID });
        for (const figure of [estimate.inputTokens, estimate.outputTokens, estimate.usd]) {
          expect(figure.low).toBeLessThanOrEqual(figure.expected);
          expect(figure.expected).toBeLessThanOrEqual(figure.high);
        }
        const sum = (of: (m: (typeof estimate.models)[number]) => number) =>
          estimate.models.reduce((total, m) => total + of(m), 0);
        expect(sum((m) => m.inputTokens.high)).toBe(estimate.inputTokens.high);
        expect(sum((m) => m.outputTokens.expected)).toBe(estimate.outputTokens.expected);
        // Dollars from whole nanodollars: the per-model figures add up exactly.
        expect(Math.round(sum((m) => m.usd.high * 1e9))).toBe(Math.round(estimate.usd.high * 1e9));
        expect(sum((m) => m.calls.low)).toBe(s.agents * s.rounds + 2);
        expect(sum((m) => m.calls.high)).toBe(s.agents * s.rounds + DEBATE_CALL_LIMITS.judge.attempts + 1);
      }),
    );
  });

  it('holds the cost of any run whose prompts carry the question, its answers and the turns they quote', () => {
    fc.assert(
      fc.property(shape, run, (s, r) => {
        const estimate = estimateDebateCost({ ...s, models: PAID });
        const brief = textTokens(s.question) + textTokens(s.context);
        let nano = 0;
        let previous: number[] = [];
        for (let round = 1; round <= s.rounds; round++) {
          const answers = Array.from(
            { length: s.agents },
            (_, seat) => r.answers[(round - 1) * 7 + seat] ?? 1,
          );
          for (const [seat, answer] of answers.entries()) {
            // A prompt: somewhere between the bare brief and the brief, its template and every quoted turn.
            const quoted = previous.reduce((t, a) => t + a + PROMPT_OVERHEAD_TOKENS.perTurn, 0);
            const input = brief + Math.floor((PROMPT_OVERHEAD_TOKENS.debater + quoted) / 2);
            nano += callCostNanoUsd(PAID.panel[seat % 2] as string, input, answer);
          }
          previous = answers;
        }
        for (let attempt = 0; attempt < r.judgeAttempts; attempt++) {
          nano += callCostNanoUsd(PAID.judge, brief + PROMPT_OVERHEAD_TOKENS.judge, r.judgeAnswer);
        }
        nano += callCostNanoUsd(PAID.classifier, textTokens(s.question) + 20, r.classifierAnswer);
        expect(usdOfNano(nano)).toBeGreaterThanOrEqual(estimate.usd.low);
        expect(usdOfNano(nano)).toBeLessThanOrEqual(estimate.usd.high);
      }),
    );
  });

  it('seats the panel as the engine does: the models rotate over the seats', () => {
    const estimate = estimateDebateCost({
      question: 'Should we ship?',
      context: null,
      agents: 3,
      rounds: 2,
      models: PAID,
    });
    const calls = Object.fromEntries(estimate.models.map((m) => [m.model, m.calls.expected]));
    expect(calls).toEqual({
      'anthropic:claude-sonnet-5-5': 4,
      'openai:gpt-6.1-terra': 2,
      'anthropic:claude-opus-5-5': 1,
      'anthropic:claude-haiku-5-5': 1,
    });
    expect(estimate.models.find((m) => m.model === PAID.judge)?.roles).toEqual(['judge']);
  });

  it('says a simulated debate costs nothing, whatever its tokens', () => {
    const models = debateModelsFor(
      { keys: {}, baseUrls: {} },
      { fundingSource: 'user_credits', preset: null, routing: null },
    );
    expect(models.simulated).toBe(true);
    const estimate = estimateDebateCost({
      question: 'Should we ship?',
      context: 'Soon.',
      agents: 5,
      rounds: 2,
      models,
    });
    expect(estimate.usd).toEqual({ low: 0, expected: 0, high: 0 });
    expect(estimate.outputTokens.high).toBeGreaterThan(0);
    expect(estimate.models.every((m) => m.provider === 'simulated' && !m.priced)).toBe(true);
  });

  it('prices the models routing picks for the service keys, and the free tier on its economy routing', () => {
    const providers = { keys: { anthropic: 'k' }, baseUrls: {} };
    const paid = debateModelsFor(providers, { fundingSource: 'user_credits', preset: null, routing: null });
    const free = debateModelsFor(providers, { fundingSource: 'free_tier', preset: 'economy', routing: null });
    expect(paid).toMatchObject({ simulated: false, judge: 'anthropic:claude-opus-5-5' });
    expect(free.judge).toBe('anthropic:claude-sonnet-5-5');
    const question = { question: 'Should we ship?', context: null, agents: 3, rounds: 1 };
    expect(estimateDebateCost({ ...question, models: free }).usd.expected).toBeLessThan(
      estimateDebateCost({ ...question, models: paid }).usd.expected,
    );
  });

  it('routes a BYOK debate over the keys it brings, not the service’s', () => {
    const providers = { keys: { anthropic: 'k' }, baseUrls: {} };
    const byok = debateModelsFor(
      providers,
      { fundingSource: 'byok', preset: null, routing: null },
      { openai: 'mine' },
    );
    expect(byok.judge).toBe('openai:gpt-6.1-sol');
    expect(byok.panel).toEqual(['openai:gpt-6.1-terra']);
  });
});
