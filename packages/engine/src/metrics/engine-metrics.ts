import { Counter, estimateUsd, Gauge, Histogram, type Registry } from '@verdict/core';
import { Context, Layer } from 'effect';
import type { LlmProvider } from '../providers/port.ts';

type EngineMetricsShape = {
  /** The provider, its every call counted by provider, model, task and outcome, timed, its tokens and cost. */
  readonly meter: (provider: LlmProvider) => LlmProvider;
  /** A debate was restored from its last snapshot (another node's, or this node's before it stopped). */
  readonly restored: () => void;
};

/** What an engine node counts of its debates and their provider calls, on its process's registry. */
export class EngineMetrics extends Context.Service<EngineMetrics, EngineMetricsShape>()(
  '@verdict/engine/EngineMetrics',
) {
  /** Counts nothing: for tests of the store and the jobs that do not read metrics. */
  static readonly none = Layer.succeed(
    EngineMetrics,
    EngineMetrics.of({ meter: (provider) => provider, restored: () => {} }),
  );

  static layer(registry: Registry, node: { active: ReadonlyMap<string, unknown>; slots: number }) {
    return Layer.succeed(EngineMetrics, EngineMetrics.of(engineMetricsOn(registry, node)));
  }
}

function engineMetricsOn(
  registry: Registry,
  node: { active: ReadonlyMap<string, unknown>; slots: number },
): EngineMetricsShape {
  const registers = [registry];
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
  const restores = new Counter({
    name: 'verdict_engine_restores_total',
    help: 'Debates restored from their last snapshot: taken over from a node that died or handed them back',
    registers,
  });
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
  return {
    restored: () => restores.inc(),
    meter: (provider) => ({
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
    }),
  };
}
