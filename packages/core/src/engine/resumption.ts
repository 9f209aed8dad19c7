import type { DebateCost, DebateEvent } from '@verdict/contracts';
import type { SnapshotFrom } from 'xstate';
import type { DebateOutcome } from '../debates/debate-records.ts';
import type { debateMachine } from './machine.ts';
import {
  addCall,
  noUsage,
  type Resumption,
  type RunningDebate,
  type SettledTurn,
  settledKey,
} from './run-debate.ts';
import type { Restoration } from './snapshot.ts';

// Between the engine node and the actor: what a restore reads back, and what a finished actor amounts to.

export function resumptionFrom(restoration: Restoration): Resumption {
  const settled = new Map<string, SettledTurn>();
  const usage = noUsage();
  for (const { inputTokens, outputTokens, ...turn } of restoration.turns) {
    settled.set(settledKey(turn.agent, turn.round), { turn });
    addCall(usage, { model: turn.model, inputTokens, outputTokens });
  }
  for (const failure of restoration.failures) {
    const key = settledKey(failure.agent, failure.round);
    if (!settled.has(key)) settled.set(key, { failed: failure.reason });
  }
  return { machine: restoration.machine, history: restoration.history, settled, usage };
}

export function failureEvent(events: DebateEvent[]) {
  const last = events.at(-1);
  return last?.type === 'debate.failed' ? last.data : null;
}

export function outcomeOf(final: SnapshotFrom<typeof debateMachine>, running: RunningDebate): DebateOutcome {
  // What was charged is settled when the final state is stored (debate-records.ts#finish), refunds included.
  const { estimatedUsd, ...counts } = running.usage;
  const cost: DebateCost = { ...counts, estimatedUsd: roundUsd(estimatedUsd), credits: 0 };
  if (final.value === 'completed' && final.context.verdict) {
    return {
      status: 'completed',
      verdict: final.context.verdict,
      cost,
      agentCount: final.context.seats.length - final.context.missing.length,
      roundCount: final.context.round,
      agentsUsed: [...new Set(final.context.turns.map((turn) => turn.model))],
    };
  }
  return {
    status: 'failed',
    code: final.context.failure?.code ?? 'INTERNAL_ERROR',
    message: final.context.failure?.message ?? 'The debate failed',
    cost,
  };
}

/** Dollars to a hundredth of a cent: list prices are no finer, and float sums are noisier. */
const roundUsd = (usd: number) => Math.round(usd * 10_000) / 10_000;

export const zeroCost = (): DebateCost => ({
  inputTokens: 0,
  outputTokens: 0,
  estimatedUsd: 0,
  credits: 0,
  llmCalls: 0,
});
