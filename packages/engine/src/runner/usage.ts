import type { DebateCost } from '@verdict/contracts';
import { callCostNanoUsd, usdOfNano } from '@verdict/core';
import type { StoredCall } from '../store/records.ts';

/** One call's tokens, as a provider reported them. */
export type CallTokens = { model: string; inputTokens: number; outputTokens: number };

/** A call of the attempt that is not a turn (turns are stored with their cost as they finish). */
export type OtherCall = StoredCall;

/**
 * Tokens and calls of a debate's attempt, and what they cost at list price (the provider table's), in whole
 * nanodollars: summed exactly, so the debate's cost is exactly the sum of its recorded calls'.
 */
export type Usage = {
  inputTokens: number;
  outputTokens: number;
  llmCalls: number;
  costNanoUsd: number;
  /** The judge's and classifier's calls, in order: stored with the final state (debate_calls). */
  others: OtherCall[];
};

export const noUsage = (): Usage => ({
  inputTokens: 0,
  outputTokens: 0,
  llmCalls: 0,
  costNanoUsd: 0,
  others: [],
});

/** Adds one call's tokens and list-price cost to a debate's usage; returns that cost. */
export function addCall(
  usage: Usage,
  call: CallTokens,
  kind?: OtherCall['kind'],
  /** A stored turn's recorded cost, counted as recorded. */
  recorded?: number | null,
): number {
  const costNanoUsd = recorded ?? callCostNanoUsd(call.model, call.inputTokens, call.outputTokens);
  usage.inputTokens += call.inputTokens;
  usage.outputTokens += call.outputTokens;
  usage.llmCalls += 1;
  usage.costNanoUsd += costNanoUsd;
  if (kind) {
    const { model, inputTokens, outputTokens } = call;
    usage.others.push({ kind, model, inputTokens, outputTokens, costNanoUsd });
  }
  return costNanoUsd;
}

/**
 * The cost a finished attempt reports, its dollars exact to the nanodollar (the sum of its calls'); what was
 * charged is settled when the final state is stored.
 */
export function costOf(usage: Usage): DebateCost {
  const { inputTokens, outputTokens, llmCalls, costNanoUsd } = usage;
  return { inputTokens, outputTokens, llmCalls, estimatedUsd: usdOfNano(costNanoUsd), credits: 0 };
}

export const zeroCost = (): DebateCost => costOf(noUsage());
