import { Counter, estimateUsd, Gauge, Histogram, type Registry } from '@verdict/core';
import { Context, Layer } from 'effect';
import type { LlmProvider } from '../providers/port.ts';
import type { HandOverReason } from '../store/lease-store.ts';

type EngineMetricsShape = {
  /** The provider, its every call counted by provider, model, task and outcome, timed, its tokens and cost. */
  readonly meter: (provider: LlmProvider) => LlmProvider;
  /** A debate was restored from its last snapshot (another node's, or this node's before it stopped). */
  readonly restored: () => void;
  /**
   * This node claimed a job's debate: the wait of the job since it was queued (a first delivery's only: a
   * redelivered job's wait includes the runs before it), and whose lease it took, if another node's.
   */
  readonly claimed: (
    job: { enqueuedAt?: number | undefined; redelivered: boolean },
    takenFrom: HandOverReason | null,
  ) => void;
};

/** What an engine node counts of its debates and their provider calls, on its process's registry. */
export class EngineMetrics extends Context.Service<EngineMetrics, EngineMetricsShape>()(
  '@verdict/engine/EngineMetrics',
) {
  /** Counts nothing: for tests of the store and the jobs that do not read metrics. */
  static readonly none = Layer.succeed(
    EngineMetrics,
    EngineMetrics.of({ meter: (provider) => provider, restored: () => {}, claimed: () => {} }),
  );

  static layer(
    registry: Registry,
    node: { active: ReadonlyMap<string, unknown>; slots: number },
    /** The node's wall clock: a job's queue wait is from the time its API process stamped. */
    now: () => number,
  ) {
    return Layer.succeed(EngineMetrics, EngineMetrics.of(engineMetricsOn(registry, node, now)));
  }
}

function engineMetricsOn(
  registry: Registry,
  node: { active: ReadonlyMap<string, unknown>; slots: number },
  now: () => number,
): EngineMetricsShape {
  const registers = [registry];
  observeNode(registers, node);
  const restores = new Counter({
    name: 'verdict_engine_restores_total',
    help: 'Debates restored from their last snapshot: taken over from a node that died or handed them back',
    registers,
  });
  const queueWait = new Histogram({
    name: 'verdict_engine_queue_wait_seconds',
    help: "Debate jobs' wait from being queued to a node's claim of the debate (first deliveries only)",
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
    registers,
  });
  const handOvers = new Counter({
    name: 'verdict_engine_lease_handovers_total',
    help: "Claims that took a debate from another node, by reason: its lease expired, or its holder's presence is gone",
    labelNames: ['reason'] as const,
    registers,
  });
  // Both reasons are series from the start, so a rate over them is 0 rather than absent.
  for (const reason of ['lease_expired', 'holder_gone'] as const) handOvers.inc({ reason }, 0);
  return {
    restored: () => restores.inc(),
    claimed: (job, takenFrom) => {
      if (!job.redelivered && job.enqueuedAt !== undefined) {
        queueWait.observe(Math.max(0, now() - job.enqueuedAt) / 1000);
      }
      if (takenFrom) handOvers.inc({ reason: takenFrom });
    },
    meter: providerMeter(registers),
  };
}

/** The node's debates running now, and its slots. */
function observeNode(registers: Registry[], node: { active: ReadonlyMap<string, unknown>; slots: number }) {
  new Gauge({
    name: 'verdict_engine_debates_running',
    help: 'Debates this node runs now',
    registers,
    collect() {
      this.set(node.active.size);
    },
  });
  new Gauge({
    name: 'verdict_engine_slots',
    help: 'Debates this node runs at most at once (ENGINE_SLOTS)',
    registers,
    collect() {
      this.set(node.slots);
    },
  });
}

/** A provider whose every call (each attempt) is counted, timed, and its tokens and cost added up. */
function providerMeter(registers: Registry[]): EngineMetricsShape['meter'] {
  // `task` tells a debater's turn from the judge's verdict (synthesizer) and the classifier's call.
  const labelNames = ['provider', 'model', 'task'] as const;
  const calls = new Counter({
    name: 'verdict_llm_calls_total',
    help: 'Provider calls (each attempt), by outcome: ok, or the failure kind',
    labelNames: [...labelNames, 'outcome'] as const,
    registers,
  });
  const seconds = new Histogram({
    name: 'verdict_llm_call_duration_seconds',
    help: 'Provider calls (each attempt) from request to last token',
    labelNames,
    buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 40, 60, 120],
    registers,
  });
  const tokens = new Counter({
    name: 'verdict_llm_tokens_total',
    help: 'Tokens of answered provider calls, by direction (input, output)',
    labelNames: [...labelNames, 'direction'] as const,
    registers,
  });
  const cost = new Counter({
    name: 'verdict_llm_cost_usd_total',
    help: "Answered provider calls' cost at list price (the provider table's)",
    labelNames,
    registers,
  });
  return (provider) => ({
    name: provider.name,
    complete: async (request) => {
      const labels = { provider: provider.name, model: request.model, task: request.task };
      const stop = seconds.startTimer(labels);
      try {
        const response = await provider.complete(request);
        calls.inc({ ...labels, outcome: 'ok' });
        tokens.inc({ ...labels, direction: 'input' }, response.inputTokens);
        tokens.inc({ ...labels, direction: 'output' }, response.outputTokens);
        cost.inc(labels, estimateUsd(response.model, response.inputTokens, response.outputTokens));
        return response;
      } catch (error) {
        const kind = (error as { kind?: unknown } | null)?.kind;
        calls.inc({ ...labels, outcome: typeof kind === 'string' ? kind : 'error' });
        throw error;
      } finally {
        stop();
      }
    },
  });
}
