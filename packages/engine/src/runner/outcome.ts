import type { DebateDomain } from '@verdict/contracts';
import type { SnapshotFrom } from 'xstate';
import type { debateMachine } from '../machine/machine.ts';
import type { DebateOutcome } from '../store/records.ts';
import type { RunningDebate } from './run-debate.ts';
import { costOf } from './usage.ts';

/**
 * What a finished actor amounts to (with the domain its question was classified in, when it completed); what
 * was charged is settled when the final state is stored.
 */
export function outcomeOf(
  final: SnapshotFrom<typeof debateMachine>,
  running: RunningDebate,
  domain: DebateDomain,
): DebateOutcome {
  const cost = costOf(running.usage);
  const calls = running.usage.others;
  if (final.value === 'completed' && final.context.verdict) {
    return {
      status: 'completed',
      verdict: final.context.verdict,
      cost,
      calls,
      agentCount: final.context.seats.length - final.context.missing.length,
      roundCount: final.context.round,
      agentsUsed: [...new Set(final.context.turns.map((turn) => turn.model))],
      domain,
    };
  }
  return {
    status: 'failed',
    code: final.context.failure?.code ?? 'INTERNAL_ERROR',
    message: final.context.failure?.message ?? 'The debate failed',
    cost,
    calls,
  };
}
