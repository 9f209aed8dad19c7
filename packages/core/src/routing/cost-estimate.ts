import type { EstimateRange, ModelEstimate } from '@verdict/contracts';
import { ATTACHMENT_PROMPT_BUDGET } from '../attachments/agent-context.ts';
import { type DebateModels, seatModel } from './debate-models.ts';
import {
  type CallTask,
  citedCharsAt,
  type DebateKind,
  type LengthTable,
  lengthsOf,
  outputTokensAt,
  quotedCharsAt,
  type Spread,
} from './output-lengths.ts';
import { callCostNanoUsd, priceOf, usdOfNano } from './prices.ts';
import {
  type BriefSize,
  classifierCallChars,
  type DocumentSize,
  debaterCallChars,
  documentChars,
  judgeCallChars,
  passageChars,
  tokensOfChars,
} from './prompt-sizes.ts';
import { PROVIDERS } from './providers.ts';

export { CHARS_PER_TOKEN } from './prompt-sizes.ts';

/** What a debate is asked: its brief, its panel and what its prompts carry besides. */
export type EstimateInput = {
  question: string;
  context: string | null;
  agents: number;
  rounds: number;
  models: DebateModels;
  /** A comparison's options (/v1 compare); absent or empty for a plain debate. */
  options?: readonly string[] | null;
  /** The documents attached at creation: each one's name (or address) and extracted text, in characters. */
  documents?: readonly DocumentSize[];
  /** The debate runs with the evidence engine (its plan's `evidence` feature): passages instead of excerpts. */
  evidence?: boolean;
  /** Output lengths learnt per model and task (output-lengths.ts); absent ones come from the default table. */
  lengths?: LengthTable;
};

type Scenario = keyof Spread;
const SCENARIOS: Scenario[] = ['low', 'expected', 'high'];
type Role = ModelEstimate['roles'][number];
type Call = { model: string; role: Role; task: CallTask; inputTokens: number; outputTokens: number };

/** The title a passage's block names when the corpus is only the context. */
const CONTEXT_TITLE = 'Context';

/** The evidence engine's corpus: the context and every document (passages name the context "Context"). */
const corpusOf = (input: Pick<EstimateInput, 'context' | 'documents'>): DocumentSize[] => [
  ...(input.context ? [{ name: CONTEXT_TITLE.length, text: input.context.length }] : []),
  ...(input.documents ?? []),
];

/** Whether the debaters' turns are offered evidence passages: the evidence engine on, and a corpus to cite. */
export const offersPassages = (input: Pick<EstimateInput, 'evidence' | 'context' | 'documents'>) =>
  (input.evidence ?? false) && corpusOf(input).some((source) => source.text > 0);

/** The kind of debate its answers' lengths are learnt by (output-lengths.ts). */
export const kindOf = (
  input: Pick<EstimateInput, 'evidence' | 'context' | 'documents' | 'options'>,
): DebateKind => ({ withPassages: offersPassages(input), comparison: (input.options?.length ?? 0) > 0 });

/** What each debater prompt carries of the debate's documents: excerpts, or with the evidence engine passages. */
function documentsOf(input: EstimateInput): number {
  const documents = input.documents ?? [];
  if (!input.evidence) return documentChars(documents, ATTACHMENT_PROMPT_BUDGET);
  const sources = corpusOf(input);
  if (sources.length === 0) return 0;
  const corpus = sources.reduce((total, source) => total + source.text, 0);
  const title = sources.reduce((total, source) => total + source.name, 0) / sources.length;
  return passageChars(corpus, Math.round(title));
}

/**
 * The calls a debate makes in one scenario, each prompt sized as the engine builds it (prompt-sizes.ts) and
 * each answer at its model's learnt length for its task and kind of debate (output-lengths.ts):
 * - expected: every answer at its model's average length, prompts quoting turns of the average length;
 * - low / high: every answer at the 10th / 90th percentile of its model's lengths, prompts quoting turns of
 *   that percentile's length.
 * One judge call (a retry, rare, is outside the interval) and the classifier's, once.
 */
function callsOf(input: EstimateInput, scenario: Scenario): Call[] {
  const brief: BriefSize = {
    question: input.question.length,
    context: input.context ? input.context.length : null,
    options: (input.options ?? []).map((option) => option.length),
    documents: documentsOf(input),
    evidence: offersPassages(input),
  };
  const { agents } = input;
  const seats = Array.from({ length: agents }, (_, seat) => seatModel(seat, input.models.panel));
  const taskOf = (round: number): CallTask => (round === 1 ? 'opening' : 'rebuttal');
  const kind = kindOf(input);
  const lengths = (model: string, task: CallTask) => lengthsOf(input.lengths, model, task, kind);
  const quotedOf = (round: number) =>
    seats.map((model) => quotedCharsAt(lengths(model, taskOf(round)), agents)[scenario]);
  const citedOf = (round: number) =>
    seats.map((model) => citedCharsAt(lengths(model, taskOf(round)), agents)[scenario]);
  const calls: Call[] = [];
  for (let round = 1; round <= input.rounds; round++) {
    const task = taskOf(round);
    // From round 2 a seat's prompt quotes every turn of the round before.
    const quoted = round > 1 ? quotedOf(round - 1) : [];
    for (const model of seats) {
      calls.push({
        model,
        role: 'debater',
        task,
        inputTokens: tokensOfChars(debaterCallChars(brief, round, quoted)),
        outputTokens: Math.round(outputTokensAt(lengths(model, task), task, agents)[scenario]),
      });
    }
  }
  const rounds = Array.from({ length: input.rounds }, (_, i) => i + 1);
  const transcript = rounds.flatMap(quotedOf);
  // The judge reads each turn's verified citations under it: only where the turns were offered passages.
  const cited = brief.evidence ? rounds.flatMap(citedOf).reduce((total, chars) => total + chars, 0) : 0;
  const { judge, classifier } = input.models;
  calls.push({
    model: judge,
    role: 'judge',
    task: 'judge',
    inputTokens: tokensOfChars(judgeCallChars(brief, agents, transcript, cited)),
    outputTokens: Math.round(outputTokensAt(lengths(judge, 'judge'), 'judge', agents)[scenario]),
  });
  calls.push({
    model: classifier,
    role: 'classifier',
    task: 'classifier',
    inputTokens: tokensOfChars(classifierCallChars(input.question.length)),
    outputTokens: Math.round(
      outputTokensAt(lengths(classifier, 'classifier'), 'classifier', agents)[scenario],
    ),
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

/** How a (model, task)'s output lengths were known: learnt from this many recent calls, or 0 (default table). */
export type LengthBasis = { model: string; task: CallTask; samples: number };

export type CostEstimate = {
  models: ModelEstimate[];
  inputTokens: EstimateRange;
  outputTokens: EstimateRange;
  usd: EstimateRange;
  /** Each (model, task) the debate calls, and what its lengths were learnt from. */
  basis: LengthBasis[];
};

/**
 * The tokens and list-price dollars of a debate, per model and in total: expected, and the stated interval
 * low–high (callsOf). Prices are the provider table's (prices.ts), summed in whole nanodollars as the
 * recorded costs are.
 */
export function estimateDebateCost(input: EstimateInput): CostEstimate {
  const byScenario = new Map(SCENARIOS.map((scenario) => [scenario, callsOf(input, scenario)]));
  const calls = (scenario: Scenario, model?: string) =>
    (byScenario.get(scenario) ?? []).filter((call) => model === undefined || call.model === model);
  const sum = (scenario: Scenario, model: string | undefined, of: (call: Call) => number) =>
    calls(scenario, model).reduce((total, call) => total + of(call), 0);
  const nano = (call: Call) => callCostNanoUsd(call.model, call.inputTokens, call.outputTokens);
  const ids = [...new Set(calls('expected').map((call) => call.model))];
  const models = ids.map(
    (model): ModelEstimate => ({
      provider: providerOf(model, input.models.simulated),
      model,
      roles: [...new Set(calls('expected', model).map((call) => call.role))],
      calls: range((s) => calls(s, model).length),
      inputTokens: range((s) => sum(s, model, (call) => call.inputTokens)),
      outputTokens: range((s) => sum(s, model, (call) => call.outputTokens)),
      usd: range((s) => usdOfNano(sum(s, model, nano))),
      priced: priceOf(model) !== null,
    }),
  );
  const asked = new Map(calls('expected').map((call) => [`${call.task} ${call.model}`, call]));
  return {
    models,
    inputTokens: range((s) => sum(s, undefined, (call) => call.inputTokens)),
    outputTokens: range((s) => sum(s, undefined, (call) => call.outputTokens)),
    usd: range((s) => usdOfNano(sum(s, undefined, nano))),
    basis: [...asked.values()].map(({ model, task }) => ({
      model,
      task,
      samples: lengthsOf(input.lengths, model, task, kindOf(input)).samples,
    })),
  };
}
