import type { DebateCost, DebateEvent } from '@verdict/contracts';
import type { SnapshotFrom } from 'xstate';
import type { DebateOutcome } from '../debates/debate-records.ts';
import type { debateMachine } from './machine.ts';
import { type Resumption, type RunningDebate, type SettledTurn, settledKey } from './run-debate.ts';
import type { Restoration } from './snapshot.ts';

// Between the engine node and the actor: what a restore reads back, and what a finished actor amounts to.

export function resumptionFrom(restoration: Restoration): Resumption {
  const settled = new Map<string, SettledTurn>();
  const usage = { inputTokens: 0, outputTokens: 0, llmCalls: 0 };
  for (const { inputTokens, outputTokens, ...turn } of restoration.turns) {
    settled.set(settledKey(turn.agent, turn.round), { turn });
    usage.inputTokens += inputTokens;
    usage.outputTokens += outputTokens;
    usage.llmCalls += 1;
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
  const cost: DebateCost = { ...running.usage, estimatedUsd: 0, credits: 0 };
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

export const zeroCost = (): DebateCost => ({
  inputTokens: 0,
  outputTokens: 0,
  estimatedUsd: 0,
  credits: 0,
  llmCalls: 0,
});
