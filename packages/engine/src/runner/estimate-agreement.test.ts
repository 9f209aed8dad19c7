import type { TurnPosition } from '@verdict/contracts';
import {
  type DebateModels,
  estimateDebateCost,
  type LengthTable,
  learnLengths,
  lengthsKey,
  type OutputSample,
} from '@verdict/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seatPanel } from '../machine/panel.ts';
import { optionLetter, positionLine } from '../machine/position.ts';
import type { LlmProvider } from '../providers/port.ts';
import { judgeVerdictJson } from '../testing/judge-verdict.ts';
import { startDebate } from './run-debate.ts';

/**
 * The estimate against a debate the engine really runs: a provider whose every turn is `turnChars` long
 * (plus its POSITION line) and whose judge answers one verdict, counting tokens at four characters as the
 * estimate does. Told those lengths as learnt ones, the estimate's expected figures are what the debate then
 * uses, whatever its brief, panel and rounds: the prompts it sizes are the prompts the engine sends.
 */
const MODELS: DebateModels = {
  simulated: false,
  panel: ['anthropic:claude-sonnet-5-5', 'openai:gpt-6.1-terra', 'google:gemini-flash-latest'],
  judge: 'anthropic:claude-opus-5-5',
  classifier: 'anthropic:claude-haiku-5-5',
};
const VERDICT = judgeVerdictJson();
const tokens = (text: string) => Math.ceil(text.length / 4);
const words = (length: number) =>
  'lorem ipsum dolor sit amet '.repeat(Math.ceil(length / 27) + 1).slice(0, length);

/** A turn of `turnChars` characters and its POSITION line: a ranking in a comparison. */
function turnOf(turnChars: number, options: readonly string[] | null): string {
  const position: TurnPosition = options
    ? { ranking: options.map((_, i) => optionLetter(i)) }
    : { recommendation: 'RECONSIDER', stance: 'mixed', confidence: 0.64 };
  return `${words(turnChars)}\n${positionLine(position)}`;
}

function fixedLengthProvider(turnChars: number, options: readonly string[] | null): LlmProvider {
  return {
    name: 'fixed-length',
    complete: async (request) => {
      const text = request.json ? VERDICT : turnOf(turnChars, options);
      return {
        text,
        model: request.model,
        inputTokens: tokens(request.system + request.prompt),
        outputTokens: tokens(text),
      };
    },
  };
}

/** Every (model, task) learnt from 30 calls of exactly these lengths, in the debate's kind: an interval of none. */
function learnt(turnChars: number, turnTokens: number, comparison: boolean): LengthTable {
  const turn: OutputSample = { outputTokens: turnTokens, quotedChars: turnChars, citedChars: 0, agents: 3 };
  const verdict: OutputSample = { outputTokens: tokens(VERDICT), quotedChars: 0, citedChars: 0, agents: 3 };
  const kind = { withPassages: false, comparison };
  const table = new Map();
  for (const model of MODELS.panel) {
    table.set(lengthsKey(model, 'opening', kind), learnLengths('opening', Array(30).fill(turn)));
    table.set(lengthsKey(model, 'rebuttal', kind), learnLengths('rebuttal', Array(30).fill(turn)));
  }
  table.set(lengthsKey(MODELS.judge, 'judge', kind), learnLengths('judge', Array(30).fill(verdict)));
  return table;
}

describe('the estimate of a debate the engine runs', () => {
  it('expects the tokens the debate then uses, for any brief, panel and rounds', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          agents: fc.integer({ min: 2, max: 8 }),
          rounds: fc.integer({ min: 1, max: 5 }),
          question: fc.integer({ min: 20, max: 1500 }),
          context: fc.option(fc.integer({ min: 10, max: 6000 }), { nil: null }),
          options: fc.option(fc.array(fc.integer({ min: 3, max: 40 }), { minLength: 2, maxLength: 4 }), {
            nil: null,
          }),
          turnChars: fc.integer({ min: 80, max: 2000 }),
        }),
        async (s) => {
          const options = s.options?.map(words) ?? null;
          const provider = fixedLengthProvider(s.turnChars, options);
          const brief = {
            question: `Should we ${words(s.question - 10)}?`.slice(0, s.question),
            context: s.context === null ? null : words(s.context),
          };
          const running = startDebate(
            {
              debateId: '6f1d2c3b-4a5e-4f60-8a71-9b8c7d6e5f40',
              ...brief,
              options,
              mode: 'balanced',
              seats: seatPanel(s.agents, MODELS.panel),
              rounds: s.rounds,
            },
            { provider, judgeModel: MODELS.judge, emit: () => {} },
          );
          expect((await running.done).value).toBe('completed');
          const turnTokens = tokens(turnOf(s.turnChars, options));
          const estimate = estimateDebateCost({
            ...brief,
            agents: s.agents,
            rounds: s.rounds,
            models: MODELS,
            options,
            lengths: learnt(s.turnChars, turnTokens, options !== null),
          });
          // The engine's node asks the classifier beside the judge; startDebate alone does not.
          const classifier = estimate.models.find((m) => m.model === MODELS.classifier);
          const expectedInput = estimate.inputTokens.expected - (classifier?.inputTokens.expected ?? 0);
          const used = running.usage;
          expect(used.llmCalls).toBe(s.agents * s.rounds + 1);
          // Within 1 %, or 5 tokens a call: a seat's name is a few characters off the panel's mean.
          expect(Math.abs(expectedInput - used.inputTokens)).toBeLessThanOrEqual(
            Math.max(0.01 * used.inputTokens, 5 * used.llmCalls),
          );
          const expectedOutput = estimate.outputTokens.expected - (classifier?.outputTokens.expected ?? 0);
          expect(expectedOutput).toBe(used.outputTokens);
        },
      ),
      { numRuns: 60 },
    );
  });
});
