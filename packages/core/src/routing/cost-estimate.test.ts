import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEBATE_CALL_LIMITS } from './call-limits.ts';
import { estimateDebateCost } from './cost-estimate.ts';
import { type DebateModels, debateModelsFor } from './debate-models.ts';
import {
  CALL_TASKS,
  type CallTask,
  type DebateKind,
  type LearntLengths,
  learnLengths,
  lengthsKey,
  type OutputSample,
} from './output-lengths.ts';

const PAID: DebateModels = {
  simulated: false,
  panel: ['anthropic:claude-sonnet-5-5', 'openai:gpt-6.1-terra'],
  judge: 'anthropic:claude-opus-5-5',
  classifier: 'anthropic:claude-haiku-5-5',
};

const shape = fc.record({
  question: fc.string({ minLength: 10, maxLength: 2000 }),
  context: fc.option(fc.string({ minLength: 1, maxLength: 5000 }), { nil: null }),
  agents: fc.integer({ min: 2, max: 8 }),
  rounds: fc.integer({ min: 1, max: 5 }),
});

/**
 * A learnt table in which every (model, task) of PAID has `n` recent calls around `tokens`, in debates of
 * `kind` (plain unless said), each citing `cited` characters of evidence lines.
 */
function learntTable(
  n: number,
  tokens: (task: CallTask, i: number) => number,
  kind: DebateKind = { withPassages: false, comparison: false },
  cited = 0,
): Map<string, LearntLengths> {
  const models = [...PAID.panel, PAID.judge, PAID.classifier];
  return new Map(
    models.flatMap((model) =>
      CALL_TASKS.map((task) => {
        const samples: OutputSample[] = Array.from({ length: n }, (_, i) => ({
          outputTokens: tokens(task, i),
          quotedChars: tokens(task, i) * 4,
          citedChars: cited,
          agents: 2 + (i % 7),
        }));
        return [lengthsKey(model, task, kind), learnLengths(task, samples)] as const;
      }),
    ),
  );
}

describe('the cost estimate', () => {
  it('orders low ≤ expected ≤ high, and its models add up to its totals', () => {
    const lengths = learntTable(
      60,
      (task, i) => (task === 'judge' ? 300 : task === 'classifier' ? 2 : 80) + (i % 13) * 9,
    );
    fc.assert(
      fc.property(shape, fc.boolean(), (s, learnt) => {
        const estimate = estimateDebateCost({ ...s, models: PAID, ...(learnt ? { lengths } : {}) });
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
        // Every turn, one judge call and the classifier's, in each scenario.
        expect(sum((m) => m.calls.low)).toBe(s.agents * s.rounds + 2);
        expect(sum((m) => m.calls.high)).toBe(s.agents * s.rounds + 2);
      }),
    );
  });

  it('answers each call at the length learnt for its model and task, and quotes turns at theirs', () => {
    const base = { question: 'Should we ship?', context: null, agents: 3, rounds: 2, models: PAID };
    const short = estimateDebateCost({ ...base, lengths: learntTable(40, () => 50) });
    const long = estimateDebateCost({ ...base, lengths: learntTable(40, () => 150) });
    // Six turns, the judge and the classifier, each answered at its learnt length (the classifier within its limit).
    expect(short.outputTokens.expected).toBe(6 * 50 + 50 + DEBATE_CALL_LIMITS.classifier.maxOutputTokens);
    expect(long.outputTokens.expected).toBe(6 * 150 + 150 + DEBATE_CALL_LIMITS.classifier.maxOutputTokens);
    // Lengths learnt without spread state no interval.
    expect(long.outputTokens.low).toBe(long.outputTokens.high);
    // Round 2's three prompts quote round 1's three turns, and the judge all six: 15 quoted turns of 600
    // characters instead of 200, 100 tokens more each.
    expect(long.inputTokens.expected - short.inputTokens.expected).toBe(15 * 100);
    expect(long.basis.every((b) => b.samples === 40)).toBe(true);
    expect(estimateDebateCost(base).basis.every((b) => b.samples === 0)).toBe(true);
  });

  it('answers turns offered passages at their own learnt lengths, and shows the judge what they cited', () => {
    const withPassages = { withPassages: true, comparison: false };
    const table = (cited: number) =>
      new Map([...learntTable(40, () => 50), ...learntTable(40, () => 150, withPassages, cited)]);
    const base = {
      question: 'Should we ship?',
      context: 'c'.repeat(2000),
      agents: 2,
      rounds: 1,
      models: PAID,
    };
    const judgeInput = (estimate: ReturnType<typeof estimateDebateCost>) =>
      estimate.models.find((m) => m.model === PAID.judge)?.inputTokens.expected ?? Number.NaN;
    const turnsOf = (estimate: ReturnType<typeof estimateDebateCost>) =>
      estimate.models
        .filter((m) => m.roles.includes('debater'))
        .reduce((total, m) => total + m.outputTokens.expected, 0);
    // The evidence engine off, or nothing to cite: plain turns.
    expect(turnsOf(estimateDebateCost({ ...base, lengths: table(0) }))).toBe(2 * 50);
    const noCorpus = estimateDebateCost({ ...base, context: null, evidence: true, lengths: table(0) });
    expect(turnsOf(noCorpus)).toBe(2 * 50);
    const cites = estimateDebateCost({ ...base, evidence: true, lengths: table(300) });
    expect(turnsOf(cites)).toBe(2 * 150);
    // Two turns' 300 characters of evidence lines each: 150 tokens more for the judge.
    const citesNothing = estimateDebateCost({ ...base, evidence: true, lengths: table(0) });
    expect(judgeInput(cites) - judgeInput(citesNothing)).toBe(150);
  });

  it('sizes the documents a debater carries: excerpts within their budget, or the evidence passages', () => {
    const base = {
      question: 'Should we ship?',
      context: 'c'.repeat(3000),
      agents: 2,
      rounds: 1,
      models: PAID,
    };
    const bare = estimateDebateCost(base).inputTokens.expected;
    const documents = [{ name: 12, text: 40_000 }];
    const excerpts = estimateDebateCost({ ...base, documents }).inputTokens.expected;
    // The attachment's 20,000 characters of excerpt, and its heading and fences, in each of the two debater
    // prompts (each call's tokens rounded up on its own).
    expect(Math.abs(excerpts - bare - (2 * (20_000 + 12 + 70)) / 4)).toBeLessThanOrEqual(2);
    const evidence = estimateDebateCost({ ...base, documents, evidence: true }).inputTokens.expected;
    // Passages instead: 6,000 characters of the 43,000-character corpus per turn, and the instructions.
    expect(evidence).toBeLessThan(excerpts);
    expect(evidence - bare).toBeGreaterThan(2 * (6_000 / 4));
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
