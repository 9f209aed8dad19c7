import type { DebateCost } from '@verdict/contracts';
import { estimateUsd } from '@verdict/core';

/** Tokens and calls of a debate, and what they cost at list price (the provider table's). */
export type Usage = { inputTokens: number; outputTokens: number; llmCalls: number; estimatedUsd: number };

export const noUsage = (): Usage => ({ inputTokens: 0, outputTokens: 0, llmCalls: 0, estimatedUsd: 0 });

/** Adds one call's tokens and list-price cost to a debate's usage. */
export function addCall(usage: Usage, call: { model: string; inputTokens: number; outputTokens: number }) {
  usage.inputTokens += call.inputTokens;
  usage.outputTokens += call.outputTokens;
  usage.llmCalls += 1;
  usage.estimatedUsd += estimateUsd(call.model, call.inputTokens, call.outputTokens);
}

/** Dollars to a hundredth of a cent: list prices are no finer, and float sums are noisier. */
const roundUsd = (usd: number) => Math.round(usd * 10_000) / 10_000;

/** The cost a finished attempt reports; what was charged is settled when the final state is stored. */
export function costOf(usage: Usage): DebateCost {
  const { estimatedUsd, ...counts } = usage;
  return { ...counts, estimatedUsd: roundUsd(estimatedUsd), credits: 0 };
}

export const zeroCost = (): DebateCost => costOf(noUsage());
