import type { EstimateRange, ModelEstimate } from '@verdict/contracts';
import { DEBATE_CALL_LIMITS } from './call-limits.ts';
import { type DebateModels, seatModel } from './debate-models.ts';
import { callCostNanoUsd, priceOf, usdOfNano } from './prices.ts';
import { PROVIDERS } from './providers.ts';

/** Characters per token the estimate counts text at: the usual rate of English text for these tokenizers. */
export const CHARS_PER_TOKEN = 4;

/**
 * Tokens of a call's prompt besides the question, the context and the turns it quotes: its system prompt,
 * the template's words and the request's own framing. Ceilings of the engine's templates (machine/prompts.ts;
 * engine/src/runner/prompt-overhead.test.ts holds them above the real prompts).
 */
export const PROMPT_OVERHEAD_TOKENS = {
  debater: 400,
  judge: 700,
  classifier: 100,
  /** Each quoted turn's line ("- Agent: …", "Round 2, Agent: …") beyond its text. */
  perTurn: 12,
} as const;

export const textTokens = (text: string | null) => (text ? Math.ceil(text.length / CHARS_PER_TOKEN) : 0);

/** What a debate is asked: its brief and its panel. */
export type EstimateInput = {
  question: string;
  context: string | null;
  agents: number;
  rounds: number;
  models: DebateModels;
};

type Scenario = 'low' | 'expected' | 'high';
const SCENARIOS: Scenario[] = ['low', 'expected', 'high'];
type Role = ModelEstimate['roles'][number];
type Call = { model: string; role: Role; inputTokens: number; outputTokens: number };

/**
 * The calls a debate makes in one scenario of the model's behaviour, tokens counted at CHARS_PER_TOKEN:
 * - low: every call answered in one token, its prompt only the question and context (no template, no turns),
 *   the judge right the first time: a floor no completed debate whose calls all answered goes under.
 * - expected: every answer half its limit, prompts with their template and the turns they quote at that
 *   length, the judge right the first time.
 * - high: every answer at its limit (DEBATE_CALL_LIMITS), prompts quoting such answers, and the judge asked
 *   all its attempts: the ceiling, short of attachments and moderator notes, which add to every prompt.
 */
function callsOf(input: EstimateInput, scenario: Scenario): Call[] {
  const brief = textTokens(input.question) + textTokens(input.context);
  const { debater, judge, classifier } = DEBATE_CALL_LIMITS;
  const answer = (limit: number) => (scenario === 'low' ? 1 : scenario === 'expected' ? limit / 2 : limit);
  const framed = (overhead: number, tokens: number) => (scenario === 'low' ? brief : overhead + tokens);
  const turn = answer(debater.maxOutputTokens) + PROMPT_OVERHEAD_TOKENS.perTurn;
  const calls: Call[] = [];
  for (let round = 1; round <= input.rounds; round++) {
    // From round 2 a seat's prompt quotes every turn of the round before.
    const quoted = round > 1 ? input.agents * turn : 0;
    for (let seat = 0; seat < input.agents; seat++) {
      calls.push({
        model: seatModel(seat, input.models.panel),
        role: 'debater',
        inputTokens: framed(PROMPT_OVERHEAD_TOKENS.debater, brief + quoted),
        outputTokens: answer(debater.maxOutputTokens),
      });
    }
  }
  const attempts = scenario === 'high' ? judge.attempts : 1;
  const transcript = input.agents * input.rounds * turn;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    calls.push({
      model: input.models.judge,
      role: 'judge',
      // A retry asks with the same prompt and a line on what was wrong (within the overhead).
      inputTokens: framed(PROMPT_OVERHEAD_TOKENS.judge, brief + transcript),
      outputTokens: answer(judge.maxOutputTokens),
    });
  }
  const asked = textTokens(input.question);
  calls.push({
    model: input.models.classifier,
    role: 'classifier',
    inputTokens: scenario === 'low' ? asked : PROMPT_OVERHEAD_TOKENS.classifier + asked,
    outputTokens: scenario === 'low' ? 1 : scenario === 'expected' ? 2 : classifier.maxOutputTokens,
  });
  return calls;
}

const range = (of: (scenario: Scenario) => number): EstimateRange => ({
  low: of('low'),
  expected: of('expected'),
  high: of('high'),
});

const providerOf = (model: string, simulated: boolean) => {
  if (simulated) return 'simulated';
  const prefix = model.slice(0, Math.max(0, model.indexOf(':')));
  return (PROVIDERS as readonly string[]).includes(prefix) ? prefix : 'unknown';
};

export type CostEstimate = {
  models: ModelEstimate[];
  inputTokens: EstimateRange;
  outputTokens: EstimateRange;
  usd: EstimateRange;
};

/**
 * The tokens and list-price dollars of a debate, per model and in total, low / expected / high (callsOf).
 * Prices are the provider table's (prices.ts), summed in whole nanodollars as the recorded costs are.
 */
export function estimateDebateCost(input: EstimateInput): CostEstimate {
  const byScenario = new Map(SCENARIOS.map((scenario) => [scenario, callsOf(input, scenario)]));
  const calls = (scenario: Scenario, model?: string) =>
    (byScenario.get(scenario) ?? []).filter((call) => model === undefined || call.model === model);
  const sum = (scenario: Scenario, model: string | undefined, of: (call: Call) => number) =>
    calls(scenario, model).reduce((total, call) => total + of(call), 0);
  const nano = (call: Call) => callCostNanoUsd(call.model, call.inputTokens, call.outputTokens);
  const ids = [...new Set(calls('high').map((call) => call.model))];
  const models = ids.map(
    (model): ModelEstimate => ({
      provider: providerOf(model, input.models.simulated),
      model,
      roles: [...new Set(calls('high', model).map((call) => call.role))],
      calls: range((s) => calls(s, model).length),
      inputTokens: range((s) => sum(s, model, (call) => call.inputTokens)),
      outputTokens: range((s) => sum(s, model, (call) => call.outputTokens)),
      usd: range((s) => usdOfNano(sum(s, model, nano))),
      priced: priceOf(model) !== null,
    }),
  );
  return {
    models,
    inputTokens: range((s) => sum(s, undefined, (call) => call.inputTokens)),
    outputTokens: range((s) => sum(s, undefined, (call) => call.outputTokens)),
    usd: range((s) => usdOfNano(sum(s, undefined, nano))),
  };
}
