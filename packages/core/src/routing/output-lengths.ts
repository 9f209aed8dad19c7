import { DEBATE_CALL_LIMITS } from './call-limits.ts';

/**
 * How long a model's answers run, learnt from this installation's recent calls of that model and task, or a
 * default table until there are enough of them. What an estimate predicts besides the prompts (prompt-sizes.ts).
 */

/** A debater's opening (round one) and rebuttals (later rounds) are learnt apart: rebuttals quote and cite. */
export type CallTask = 'opening' | 'rebuttal' | 'judge' | 'classifier';
export const CALL_TASKS: readonly CallTask[] = ['opening', 'rebuttal', 'judge', 'classifier'];

/**
 * Kinds of debate whose answers run to other lengths, learnt apart (while each kind has enough calls): turns
 * offered evidence passages cite and quote them, and a comparison's agents rank options rather than argue a
 * side. The classifier reads the question alone: it has one kind.
 */
export type DebateKind = { withPassages: boolean; comparison: boolean };
export const PLAIN: DebateKind = { withPassages: false, comparison: false };

/** Recent calls per (model, task) the lengths are learnt from. */
export const LEARNT_FROM_LAST = 200;
/** Fewer recent calls than this and the default table answers for that (model, task). */
export const LEARNT_AT_LEAST = 20;
/** The stated interval of an estimate: low and high are these percentiles of the learnt lengths. */
export const INTERVAL_PERCENTILES = { low: 10, high: 90 } as const;

/**
 * A length as a function of the panel: `base + perAgent × agents` on average, and the interval around it
 * as ratios (the 10th and 90th percentiles of what was seen ÷ the average it was predicted at).
 */
export type LengthFit = { base: number; perAgent: number; low: number; high: number };

export type LearntLengths = {
  /** Recent calls learnt from; 0 when the default table answers. */
  samples: number;
  /** Output tokens of one call. */
  outputTokens: LengthFit;
  /** Characters the answer takes where later prompts quote it (debaters' turns, without the POSITION line). */
  quotedChars: LengthFit;
  /** Characters of the judge's evidence lines for the turn's verified citations (turns offered passages). */
  citedChars: LengthFit;
};

/** One recent call: its output tokens, its text as quoted and its citations as the judge reads them, its panel. */
export type OutputSample = { outputTokens: number; quotedChars: number; citedChars: number; agents: number };

export type Spread = { low: number; expected: number; high: number };

const flat = (mean: number, low: number, high: number): LengthFit => ({ base: mean, perAgent: 0, low, high });
const NONE = flat(0, 1, 1);

/**
 * Until an installation has seen LEARNT_AT_LEAST calls of a model and task: a debater asked for "under 200
 * words" (about 260 tokens; 4 characters a token, less its POSITION line where quoted) citing a passage or
 * so when it has them; a verdict of a few hundred tokens and about a hundred more per agent it sums up; a
 * one-word domain. Nothing is known of the model yet, so the interval is deliberately wide: from a sentence
 * up to the engine's limit for the task.
 */
export const DEFAULT_LENGTHS: Record<CallTask, LearntLengths> = {
  opening: {
    samples: 0,
    outputTokens: flat(260, 0.02, 2.4),
    quotedChars: flat(950, 0.02, 2.5),
    citedChars: flat(140, 0, 3),
  },
  rebuttal: {
    samples: 0,
    outputTokens: flat(290, 0.02, 2.1),
    quotedChars: flat(1050, 0.02, 2.3),
    citedChars: flat(140, 0, 3),
  },
  judge: {
    samples: 0,
    outputTokens: { base: 500, perAgent: 100, low: 0.05, high: 2 },
    quotedChars: NONE,
    citedChars: NONE,
  },
  classifier: { samples: 0, outputTokens: flat(2, 0.5, 4), quotedChars: NONE, citedChars: NONE },
};

const LIMITS: Record<CallTask, number> = {
  opening: DEBATE_CALL_LIMITS.debater.maxOutputTokens,
  rebuttal: DEBATE_CALL_LIMITS.debater.maxOutputTokens,
  judge: DEBATE_CALL_LIMITS.judge.maxOutputTokens,
  classifier: DEBATE_CALL_LIMITS.classifier.maxOutputTokens,
};

/** The p-th percentile (0–100) of sorted values, linearly between the nearest ranks. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const at = (p / 100) * (sorted.length - 1);
  const below = Math.floor(at);
  const lower = sorted[below] as number;
  const upper = sorted[Math.min(sorted.length - 1, below + 1)] as number;
  return lower + (upper - lower) * (at - below);
}

/**
 * Fits a length to samples: their mean, or with `byPanel` a least-squares line over the panel's size (a
 * verdict sums up every agent, so it grows with the panel; a slope that comes out negative, or a history of
 * one panel size, falls back to the mean). The interval is the 10th–90th percentile of each sample ÷ its fit.
 */
export function fitLengths(
  points: readonly { agents: number; value: number }[],
  byPanel: boolean,
): LengthFit {
  const n = points.length;
  const meanOf = (of: (point: { agents: number; value: number }) => number) =>
    points.reduce((total, point) => total + of(point), 0) / n;
  const meanValue = meanOf((point) => point.value);
  let base = meanValue;
  let perAgent = 0;
  if (byPanel) {
    const meanAgents = meanOf((point) => point.agents);
    const spread = meanOf((point) => (point.agents - meanAgents) ** 2);
    const together = meanOf((point) => (point.agents - meanAgents) * (point.value - meanValue));
    if (spread > 0 && together > 0) {
      perAgent = together / spread;
      base = meanValue - perAgent * meanAgents;
    }
  }
  const ratios = points
    .map((point) => {
      const predicted = base + perAgent * point.agents;
      return predicted > 0 ? point.value / predicted : 1;
    })
    .sort((a, b) => a - b);
  return {
    base,
    perAgent,
    low: percentile(ratios, INTERVAL_PERCENTILES.low),
    high: percentile(ratios, INTERVAL_PERCENTILES.high),
  };
}

/** The lengths of one model and task from its recent calls (newest first, at most LEARNT_FROM_LAST). */
export function learnLengths(task: CallTask, samples: readonly OutputSample[]): LearntLengths {
  const recent = samples.slice(0, LEARNT_FROM_LAST);
  if (recent.length < LEARNT_AT_LEAST) return DEFAULT_LENGTHS[task];
  const of = (value: (sample: OutputSample) => number, byPanel = false) =>
    fitLengths(
      recent.map((sample) => ({ agents: sample.agents, value: value(sample) })),
      byPanel,
    );
  const debater = task === 'opening' || task === 'rebuttal';
  return {
    samples: recent.length,
    outputTokens: of((sample) => sample.outputTokens, task === 'judge'),
    quotedChars: debater ? of((sample) => sample.quotedChars) : NONE,
    citedChars: debater ? of((sample) => sample.citedChars) : NONE,
  };
}

/** A fit at a panel of `agents`: its average and its interval, never below 0 nor above `limit`. */
export function spreadAt(fit: LengthFit, agents: number, limit = Number.POSITIVE_INFINITY): Spread {
  const expected = Math.max(0, fit.base + fit.perAgent * agents);
  const cap = (value: number) => Math.min(limit, Math.max(0, value));
  return { low: cap(expected * fit.low), expected: cap(expected), high: cap(expected * fit.high) };
}

/** A call's output tokens at a panel of `agents`, within the engine's limit for the task. */
export const outputTokensAt = (lengths: LearntLengths, task: CallTask, agents: number): Spread =>
  spreadAt(lengths.outputTokens, agents, LIMITS[task]);

/** A turn's text as later prompts quote it. */
export const quotedCharsAt = (lengths: LearntLengths, agents: number): Spread =>
  spreadAt(lengths.quotedChars, agents);

/** A turn's verified citations as the judge reads them. */
export const citedCharsAt = (lengths: LearntLengths, agents: number): Spread =>
  spreadAt(lengths.citedChars, agents);

/** The kind a task is learnt by: the classifier's is always plain. */
export const kindFor = (task: CallTask, kind: DebateKind): DebateKind =>
  task === 'classifier' ? PLAIN : kind;

/** The lengths of each model, task and kind a debate calls, by `lengthsKey`; missing ones are the default table's. */
export type LengthTable = ReadonlyMap<string, LearntLengths>;
export const lengthsKey = (model: string, task: CallTask, kind: DebateKind = PLAIN) => {
  const { withPassages, comparison } = kindFor(task, kind);
  return `${task}${withPassages ? '+passages' : ''}${comparison ? '+comparison' : ''}\u0000${model}`;
};
export const lengthsOf = (
  table: LengthTable | undefined,
  model: string,
  task: CallTask,
  kind: DebateKind = PLAIN,
): LearntLengths => table?.get(lengthsKey(model, task, kind)) ?? DEFAULT_LENGTHS[task];
