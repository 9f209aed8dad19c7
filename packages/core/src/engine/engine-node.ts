import type { DebateCost, DebateEventBody, ProviderName } from '@verdict/contracts';
import type { Bus, JobConsumer, JobHandle } from '../bus/ports.ts';
import type { Database } from '../db/orm.ts';
import type { Debate } from '../debates/debate.entity.ts';
import { createDebateRecords, type DebateOutcome } from '../debates/debate-records.ts';
import type { Clock } from '../shared/clock.ts';
import { applyCommand } from './commands.ts';
import { createEventLog } from './event-log.ts';
import { type DebatePreset, planDebate, RoutingError } from './llm/models.ts';
import type { LlmProvider } from './llm/port.ts';
import {
  createProviders,
  dispatchingProvider,
  type ProviderKeys,
  type ProviderRegistryOptions,
} from './llm/registry.ts';
import { type SimulatedOptions, simulatedProvider } from './llm/simulated.ts';
import type { CallPolicy } from './llm-call.ts';
import { seatPanel } from './panel.ts';
import { type RunningDebate, startDebate, statePath } from './run-debate.ts';

export type EngineNodeOptions = {
  db: Database;
  bus: Bus;
  clock: Clock;
  /** Debates this node runs at once. */
  slots: number;
  /** The service's own provider keys; with none, debates run on the simulated provider. */
  providerKeys: ProviderKeys;
  providerOptions?: ProviderRegistryOptions;
  simulated?: SimulatedOptions;
  policy?: CallPolicy;
  /** How often a running job tells the queue it is alive; well under the queue's ack wait. */
  heartbeatMs?: number;
  log?: (level: 'info' | 'warn' | 'error', message: string, details?: Record<string, unknown>) => void;
};

export type EngineNode = {
  start: () => void;
  stop: () => Promise<void>;
  /** Debates running on this node, by id: for commands, status and debugging views. */
  active: Map<string, RunningDebate>;
  /** True when no provider key is configured and debates run on the simulated provider. */
  simulated: boolean;
};

export const SIMULATED_MODELS = { panel: ['simulated/sonnet', 'simulated/haiku'], judge: 'simulated/opus' };
export const SIMULATED_FREE_JUDGE = 'simulated/haiku';

/**
 * One engine node: pulls debate jobs, runs each as an actor, stores every turn and event, answers
 * commands for the debates it holds, and acks a job only after the final state is stored.
 */
export function createEngineNode(options: EngineNodeOptions): EngineNode {
  const { db, bus, clock } = options;
  const log = options.log ?? (() => {});
  const records = createDebateRecords(db, bus.jobs, clock);
  const service = createProviders(options.providerKeys, options.providerOptions);
  const simulated = service.available.length === 0;
  const simulatedLlm = simulatedProvider(options.simulated);
  const active = new Map<string, RunningDebate>();
  let consumer: JobConsumer | null = null;
  let stopping = false;

  type Providers = { provider: LlmProvider; panel: string[]; judge: string };

  /** The providers a debate runs on, or why it cannot run at all. */
  async function providersFor(debate: Debate): Promise<Providers | { unavailable: string }> {
    try {
      if (debate.fundingSource === 'byok') {
        const keys = await bus.keys.fetch(debate.id);
        if (!keys) {
          return {
            unavailable:
              'The provider keys of this BYOK debate are no longer available (the service restarted before it ran); create it again',
          };
        }
        return plan(debate, createProviders(keys as ProviderKeys, options.providerOptions));
      }
      if (simulated) {
        // The free tier's lighter judge, as the create response announced (judgeModel).
        const judge = debate.fundingSource === 'free_tier' ? SIMULATED_FREE_JUDGE : SIMULATED_MODELS.judge;
        return { provider: simulatedLlm, panel: SIMULATED_MODELS.panel, judge };
      }
      return plan(debate, service);
    } catch (err) {
      if (err instanceof RoutingError) return { unavailable: err.message };
      throw err;
    }
  }

  function plan(debate: Debate, set: ReturnType<typeof createProviders>) {
    const debatePlan = planDebate(
      debate.preset as DebatePreset | null,
      debate.routing,
      set.available as ProviderName[],
    );
    return { provider: dispatchingProvider(set), panel: debatePlan.panelModels, judge: debatePlan.judge.id };
  }

  async function run(handle: JobHandle) {
    const { debateId } = handle.job;
    const debate = await records.find(debateId);
    // Deleted or finished: a duplicate delivery. Nothing to do.
    if (!debate || debate.status === 'completed' || debate.status === 'failed') {
      await handle.ack();
      return;
    }
    let attempt = debate.attempt;
    if (debate.status === 'pending') {
      // A pending debate belongs to the job of its current attempt; an older job is stale.
      if (handle.job.attempt !== attempt) {
        await handle.ack();
        return;
      }
    } else {
      // Redelivered after the node running it died: rerun as a new attempt with its own event stream.
      const next = await records.restartAttempt(debateId, attempt);
      if (next === null) {
        await handle.ack();
        return;
      }
      log('warn', `debate ${debateId} was left unfinished; restarting as attempt ${next}`);
      attempt = next;
    }
    const heartbeat = setInterval(() => handle.heartbeat(), options.heartbeatMs ?? 5000);
    const events = createEventLog(db, bus.events, clock, { debateId, attempt, afterSeq: 0 });
    let stopServing: (() => void) | null = null;
    let cancelled = false;
    try {
      const providers = await providersFor(debate);
      if ('unavailable' in providers) {
        const message = providers.unavailable;
        events.emit({ type: 'debate.failed', data: { debateId, error: message, code: 'PROVIDER_ERROR' } });
        await events.flush();
        await records.finish(debateId, attempt, {
          status: 'failed',
          code: 'PROVIDER_ERROR',
          message,
          cost: zeroCost(),
        });
        await handle.ack();
        return;
      }
      await records.setStatus(debateId, attempt, 'running');
      let rejectFatal: (error: unknown) => void = () => {};
      const fatal = new Promise<never>((_, reject) => {
        rejectFatal = reject;
      });
      const running = startDebate(
        {
          debateId,
          question: debate.question,
          context: debate.context ?? null,
          mode: debate.mode,
          seats: seatPanel(debate.requestedAgents, providers.panel),
          rounds: debate.requestedRounds,
        },
        {
          provider: providers.provider,
          judgeModel: providers.judge,
          ...(options.policy ? { policy: options.policy } : {}),
          emit: (event: DebateEventBody) => events.emit(event),
          recordTurn: (turn, usage) => records.saveTurn({ debateId, attempt }, turn, usage),
          onFatal: (error) => rejectFatal(error),
        },
      );
      active.set(debateId, running);
      stopServing = await bus.commands.serve(debateId, (command) => {
        if (command.type === 'cancel') cancelled = true;
        return applyCommand(running, command);
      });
      const statusSync = trackPausedStatus(running, (status) => records.setStatus(debateId, attempt, status));
      const final = await Promise.race([running.done, fatal]).catch((error) => {
        running.actor.stop();
        throw error;
      });
      statusSync.unsubscribe();
      await events.flush();
      const cost: DebateCost = { ...running.usage, estimatedUsd: 0, credits: 0 };
      const outcome: DebateOutcome =
        final.value === 'completed' && final.context.verdict
          ? {
              status: 'completed',
              verdict: final.context.verdict,
              cost,
              agentCount: final.context.seats.length - final.context.missing.length,
              roundCount: final.context.round,
              agentsUsed: [...new Set(final.context.turns.map((turn) => turn.model))],
            }
          : {
              status: 'failed',
              code: final.context.failure?.code ?? 'INTERNAL_ERROR',
              message: final.context.failure?.message ?? 'The debate failed',
              cost,
            };
      await records.finish(debateId, attempt, outcome);
      await handle.ack();
      log('info', `debate ${debateId} ${outcome.status}`, { state: statePath(final.value) });
    } catch (err) {
      if (cancelled) {
        log('info', `debate ${debateId} cancelled`);
        await handle.ack().catch(() => {});
        return;
      }
      // Storage or bus trouble: hand the job back; the stored turns and events make the rerun idempotent.
      if (stopping) {
        log('info', `debate ${debateId} handed back to the queue: this node is stopping`);
        handle.retry(0);
      } else {
        // Storage or bus trouble: retry a little later; stored turns and events are not duplicated.
        log('error', `debate ${debateId} interrupted; job returned to the queue`, { err });
        handle.retry(5000);
      }
    } finally {
      clearInterval(heartbeat);
      stopServing?.();
      active.delete(debateId);
    }
  }

  return {
    active,
    simulated,
    start: () => {
      stopping = false;
      consumer ??= bus.jobs.consume(options.slots, run);
    },
    stop: async () => {
      stopping = true;
      // Stop pulling first (synchronously), then end the running actors so their handlers return the jobs.
      const consumerStopped = consumer?.stop();
      for (const running of active.values()) running.actor.stop();
      await consumerStopped;
      consumer = null;
    },
  };
}

/** Mirrors the machine's paused state into the debates row, so readers of the API see it. */
function trackPausedStatus(
  running: RunningDebate,
  write: (status: 'running' | 'paused') => Promise<unknown>,
) {
  let last: 'running' | 'paused' = 'running';
  let chain: Promise<unknown> = Promise.resolve();
  return running.actor.subscribe((snapshot) => {
    if (!snapshot.matches('running')) return;
    const status = snapshot.matches({ running: 'paused' }) ? 'paused' : 'running';
    if (status === last) return;
    last = status;
    chain = chain.then(() => write(status)).catch(() => {});
  });
}

const zeroCost = (): DebateCost => ({
  inputTokens: 0,
  outputTokens: 0,
  estimatedUsd: 0,
  credits: 0,
  llmCalls: 0,
});
