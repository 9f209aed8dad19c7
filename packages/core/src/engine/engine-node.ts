import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { DebateEventBody } from '@verdict/contracts';
import type { Bus, CommandReply, JobConsumer, JobHandle } from '../bus/ports.ts';
import type { Database } from '../db/orm.ts';
import type { Debate } from '../debates/debate.entity.ts';
import { createDebateRecords, type DebateOutcome, type Lease } from '../debates/debate-records.ts';
import type { Clock } from '../shared/clock.ts';
import { applyCommand } from './commands.ts';
import { createProviderChoice } from './debate-providers.ts';
import { createDurableLog, type DurableLog, replayKey } from './durable-log.ts';
import { type Claim, createLeases } from './lease.ts';
import type { ProviderKeys, ProviderRegistryOptions } from './llm/registry.ts';
import type { SimulatedOptions } from './llm/simulated.ts';
import type { CallPolicy } from './llm-call.ts';
import { seatPanel } from './panel.ts';
import { trackPausedStatus } from './paused-status.ts';
import { createReconciler, type Reconciler } from './reconciler.ts';
import { failureEvent, outcomeOf, resumptionFrom, zeroCost } from './resumption.ts';
import { type RunningDebate, startDebate } from './run-debate.ts';
import { loadRestoration, type PersistedState, packState } from './snapshot.ts';
import { LeaseLost, withStorageRetry } from './storage-retry.ts';

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
  /** The queue's ack wait: a node's lease on a debate lasts as long, renewed with each heartbeat. */
  leaseMs?: number;
  /** How often a running job tells the queue (and the lease) it is alive; well under the ack wait. */
  heartbeatMs?: number;
  /** How long storage and bus writes retry through an outage before the debate is handed back. */
  storageToleranceMs?: number;
  reconcile?: { intervalMs: number; staleAfterMs: number };
  /**
   * Interruptions (other than a node stopping or losing its lease) after which a debate fails INTERNAL_ERROR
   * instead of going back to the queue again: a debate that breaks every time must not cycle forever.
   */
  maxInterruptions?: number;
  /** The only node there is (embedded mode): at start it takes over whatever an earlier process left. */
  exclusive?: boolean;
  log?: (level: 'info' | 'warn' | 'error', message: string, details?: Record<string, unknown>) => void;
};

export type EngineNode = {
  start: () => void;
  stop: () => Promise<void>;
  /** Debates running on this node, by id: for commands, status and debugging views. */
  active: Map<string, RunningDebate>;
  /** True when no provider key is configured and debates run on the simulated provider. */
  simulated: boolean;
  /** How this node signs its leases. */
  nodeId: string;
  reconciler: Reconciler;
};

/**
 * One engine node: pulls debate jobs, runs each as an actor, stores every turn and event, answers
 * commands for the debates it holds, and acks a job only after the final state is stored.
 */
export function createEngineNode(options: EngineNodeOptions): EngineNode {
  const { db, bus, clock } = options;
  const log = options.log ?? (() => {});
  const records = createDebateRecords(db, bus.jobs, clock);
  const { simulated, providersFor } = createProviderChoice({
    keys: bus.keys,
    providerKeys: options.providerKeys,
    providerOptions: options.providerOptions,
    simulated: options.simulated,
  });
  const active = new Map<string, RunningDebate>();
  const nodeId = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const heartbeatMs = options.heartbeatMs ?? Math.max(200, Math.floor(leaseMs / 3));
  const leases = createLeases(db, nodeId, leaseMs);
  const maxInterruptions = options.maxInterruptions ?? DEFAULT_MAX_INTERRUPTIONS;
  const retry = { toleranceMs: options.storageToleranceMs ?? DEFAULT_STORAGE_TOLERANCE_MS };
  const reconciler = createReconciler(db, bus.jobs, {
    intervalMs: options.reconcile?.intervalMs ?? 15_000,
    staleAfterMs: options.reconcile?.staleAfterMs ?? 30_000,
    log: (message, details) => log('warn', message, details),
  });
  /** The leases this node holds, renewed together on each heartbeat. */
  const held = new Map<string, { epoch: number; lost: () => void }>();
  const renewLeases = async () => {
    const entries = [...held].map(([debateId, { epoch }]) => ({ debateId, epoch }));
    const stillHeld = await leases.renew(entries);
    for (const { debateId, epoch } of entries) {
      const entry = held.get(debateId);
      if (entry?.epoch === epoch && !stillHeld.has(debateId)) entry.lost();
    }
  };
  let leaseTimer: NodeJS.Timeout | null = null;
  let consumer: JobConsumer | null = null;
  let stopping = false;

  /** Debates whose job this node is handling, from the first look until the job is acked or given back. */
  const handling = new Set<string>();

  async function run(handle: JobHandle) {
    const { debateId } = handle.job;
    // Another copy of a job this node is already handling (a duplicate publish, a reconciler's copy, its
    // own job redelivered): claiming again would start a second actor. It comes back a lease period later,
    // when this node may have finished (the copy is then dropped) or handed the debate over (it is the
    // job that carries it on).
    if (handling.has(debateId)) {
      handle.retry(leaseMs);
      return;
    }
    handling.add(debateId);
    try {
      await claimAndRun(handle);
    } finally {
      handling.delete(debateId);
    }
  }

  async function claimAndRun(handle: JobHandle) {
    const { debateId, attempt } = handle.job;
    let claim: Claim;
    let debate: Debate | null;
    try {
      debate = await records.find(debateId);
      claim =
        !debate || debate.attempt !== attempt ? { kind: 'gone' } : await leases.claim(debateId, attempt);
    } catch (err) {
      log('warn', `debate ${debateId}: storage unavailable; job returned to the queue`, { err });
      handle.retry(RETRY_AFTER_TROUBLE_MS);
      return;
    }
    if (claim.kind === 'gone' || !debate) {
      await handle.ack().catch(() => {});
      return;
    }
    if (claim.kind === 'held') {
      // The holder's own job, back because its heartbeats stopped: look again once its lease runs out.
      // Any other copy is dropped: if the holder dies, its own job (or the reconciler) brings it back.
      if (handle.redelivered) handle.retry(claim.remainingMs + 250);
      else await handle.ack().catch(() => {});
      return;
    }
    await runClaimed(handle, debate, { attempt, epoch: claim.epoch });
  }

  async function runClaimed(handle: JobHandle, debate: Debate, lease: Lease) {
    const debateId = debate.id;
    let rejectFatal: (error: unknown) => void = () => {};
    const fatal = new Promise<never>((_, reject) => {
      rejectFatal = reject;
    });
    fatal.catch(() => {});
    const heartbeat = setInterval(() => handle.heartbeat(), heartbeatMs);
    held.set(debateId, { epoch: lease.epoch, lost: () => rejectFatal(new LeaseLost(debateId)) });
    let eventLog: DurableLog | null = null;
    /** The actor's state after its last step, stored with the next batch of events. */
    let latestState: PersistedState | null = null;
    let stopServing: (() => void) | null = null;
    let cancelled = false;
    /** The actor once it runs; null when this node gives the debate up before starting it. */
    let started: (debate: RunningDebate | null) => void = () => {};
    const actorReady = new Promise<RunningDebate | null>((resolve) => {
      started = resolve;
    });
    try {
      // Answer commands from before the debate reads `running`; those that arrive while the debate is
      // being restored wait for the actor.
      stopServing = await bus.commands.serve(debateId, async (command) => {
        const current = await actorReady;
        if (!current) return 'no_engine';
        if (command.type === 'cancel') cancelled = true;
        const reply = applyCommand(current, command);
        if (!reply.accepted || command.type === 'inspect' || command.type === 'cancel') return reply;
        // Accepted means stored: the command survives this node dying right after answering.
        return eventLog
          ? eventLog.flush().then(
              () => reply,
              () => refusedUnstored(reply),
            )
          : reply;
      });
      if (!(await withStorageRetry(() => leases.markRunning(debateId, lease.epoch), retry))) {
        throw new LeaseLost(debateId);
      }
      const restoration = await withStorageRetry(() => loadRestoration(db, debateId, lease.attempt), retry);
      // Whatever the previous holder stored but may not have published reaches live streams (JetStream
      // drops the ones it already has by message id).
      await withStorageRetry(() => Promise.all(restoration.events.map((e) => bus.events.publish(e))), retry);
      const events = createDurableLog(
        db,
        bus.events,
        clock,
        {
          debateId,
          attempt: lease.attempt,
          epoch: lease.epoch,
          afterSeq: restoration.events.at(-1)?.seq ?? 0,
          storedKeys: restoration.events.flatMap((e) => replayKey(e) ?? []),
        },
        {
          snapshot: () => (latestState ? { state: packState(latestState) } : null),
          retry,
          onFailure: (error) => rejectFatal(error),
        },
      );
      eventLog = events;
      const finishWith = async (outcome: DebateOutcome) => {
        await events.flush();
        const stored = await withStorageRetry(() => records.finish(debateId, lease, outcome), retry);
        // Nothing stored means another node took the debate over (its own job carries it) or it was
        // deleted: either way this job is done.
        await handle.ack().catch(() => {});
        if (stored) log('info', `debate ${debateId} ${outcome.status}`);
        else log('warn', `debate ${debateId}: lease lost before its final state was stored`);
      };
      const interrupted = restoration.machine ? null : failureEvent(restoration.events);
      if (interrupted) {
        // It failed before it ever ran (no provider), and the node died before storing that.
        await finishWith({
          status: 'failed',
          code: interrupted.code,
          message: interrupted.error,
          cost: zeroCost(),
        });
        return;
      }
      const providers = await providersFor(debate);
      if ('unavailable' in providers) {
        const message = providers.unavailable;
        events.emit({ type: 'debate.failed', data: { debateId, error: message, code: 'PROVIDER_ERROR' } });
        await finishWith({ status: 'failed', code: 'PROVIDER_ERROR', message, cost: zeroCost() });
        return;
      }
      // Stopping while this debate was being claimed or loaded: hand it back rather than start it.
      if (stopping) throw new HandedBack(debateId);
      if (restoration.machine) log('warn', `debate ${debateId} restored from its last snapshot`);
      const current = startDebate(
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
          recordTurn: async (turn, usage) => {
            const stored = await withStorageRetry(
              () => records.saveTurn(debateId, lease, turn, usage),
              retry,
            );
            if (!stored) throw new LeaseLost(debateId);
          },
          onFatal: (error) => rejectFatal(error),
          onStateChange: (state) => {
            latestState = state;
            events.stateChanged();
          },
        },
        restoration.machine ? resumptionFrom(restoration) : undefined,
      );
      // A stop before the race below settles `done` with nobody listening yet; the race still sees it.
      current.done.catch(() => {});
      active.set(debateId, current);
      started(current);
      const statusSync = trackPausedStatus(
        current,
        debate.status === 'paused' ? 'paused' : 'running',
        (status) => withStorageRetry(() => records.setStatus(debateId, lease, status), retry),
      );
      const final = await Promise.race([current.done, fatal]).catch((error) => {
        current.actor.stop();
        throw error;
      });
      statusSync.unsubscribe();
      await finishWith(outcomeOf(final, current));
    } catch (err) {
      const release = async () => {
        // Out of the renewal set first, so a heartbeat in flight cannot extend the lease being released.
        held.delete(debateId);
        await leases.release(debateId, lease.epoch).catch(() => {});
      };
      if (cancelled) {
        // Being deleted; should the delete not happen, the debate is free for the reconciler to resume.
        log('info', `debate ${debateId} cancelled`);
        await release();
        await handle.ack().catch(() => {});
      } else if (err instanceof LeaseLost) {
        // Another node claimed it (with a job of its own, which carries it on), or it was deleted.
        log('warn', `debate ${debateId}: lease lost; leaving it to its new holder`);
        await handle.ack().catch(() => {});
      } else if (stopping) {
        // Everything up to the last step is stored: whichever node takes the job next restores it from there.
        await eventLog?.flush().catch(() => {});
        await release();
        log('info', `debate ${debateId} handed back to the queue: this node is stopping`);
        handle.retry(0);
      } else {
        await eventLog?.flush().catch(() => {});
        const interruptions = await leases.countInterruption(debateId, lease.epoch).catch(() => null);
        if (interruptions !== null && interruptions >= maxInterruptions) {
          // The same debate keeps breaking while storage answers: a defect or a corrupt state, not a blip.
          log('error', `debate ${debateId} failed: interrupted ${interruptions} times`, { err });
          await giveUp(lease).catch((error) =>
            log('error', `debate ${debateId}: could not fail it`, { error }),
          );
          await handle.ack().catch(() => {});
        } else {
          // Storage or bus trouble beyond the tolerance (the count above failed too, then): try again later.
          await release();
          log('error', `debate ${debateId} interrupted; job returned to the queue`, { err });
          handle.retry(RETRY_AFTER_TROUBLE_MS);
        }
      }
    } finally {
      started(null); // no effect once the actor ran; otherwise waiting commands learn nobody runs it here
      clearInterval(heartbeat);
      held.delete(debateId);
      stopServing?.();
      active.delete(debateId);
    }

    /** Ends the attempt as failed INTERNAL_ERROR (refunded), with the failure at the end of its stream. */
    async function giveUp(lease: Lease) {
      const message = 'The engine could not run this debate; its credits were refunded';
      const failure = createDurableLog(
        db,
        bus.events,
        clock,
        {
          debateId,
          attempt: lease.attempt,
          epoch: lease.epoch,
          afterSeq: await lastStoredSeq(db, debateId, lease.attempt),
          storedKeys: [],
        },
        { snapshot: () => null, retry, onFailure: () => {} },
      );
      failure.emit({ type: 'debate.failed', data: { debateId, error: message, code: 'INTERNAL_ERROR' } });
      await failure.flush();
      await records.finish(debateId, lease, {
        status: 'failed',
        code: 'INTERNAL_ERROR',
        message,
        cost: zeroCost(),
      });
    }
  }

  return {
    active,
    simulated,
    nodeId,
    reconciler,
    start: () => {
      stopping = false;
      if (consumer) return;
      consumer = bus.jobs.consume(options.slots, run);
      // A storage blip fails a renewal: the leases have until they expire, and writes retry on their own.
      leaseTimer = setInterval(() => void renewLeases().catch(() => {}), heartbeatMs);
      if (options.exclusive) {
        void reconciler
          .takeOverAll(nodeId)
          .catch((err) => log('error', 'could not take over unfinished debates', { err }));
      }
      reconciler.start();
    },
    stop: async () => {
      stopping = true;
      // Stop pulling first (synchronously), then end the running actors so their handlers return the jobs.
      const consumerStopped = consumer?.stop();
      const reconcilerStopped = reconciler.stop();
      for (const running of active.values()) running.actor.stop();
      await Promise.all([consumerStopped, reconcilerStopped]);
      if (leaseTimer) clearInterval(leaseTimer);
      leaseTimer = null;
      consumer = null;
    },
  };
}

const refusedUnstored = (reply: CommandReply): CommandReply => ({
  accepted: false,
  state: reply.state,
  message: 'The engine could not store the command; try again',
});

/** A debate handed back to the queue unstarted because its node is stopping. */
class HandedBack extends Error {
  constructor(debateId: string) {
    super(`debate ${debateId} handed back: the node is stopping`);
  }
}

const DEFAULT_LEASE_MS = 6000;
const DEFAULT_STORAGE_TOLERANCE_MS = 30_000;
const DEFAULT_MAX_INTERRUPTIONS = 5;
/** A job that met storage trouble comes back after this long. */
const RETRY_AFTER_TROUBLE_MS = 2000;

async function lastStoredSeq(db: Database, debateId: string, attempt: number): Promise<number> {
  const [row] = await db.execute<{ seq: number }>(
    'select coalesce(max(seq), 0)::int as seq from debate_events where debate_id = ? and attempt = ?',
    [debateId, attempt],
  );
  return Number(row?.seq ?? 0);
}
