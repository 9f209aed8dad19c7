import type { DebateEventBody, Verdict } from '@verdict/contracts';
import type { TransitionRecord } from '@verdict/core';
import * as Clock from 'effect/Clock';
import * as Context from 'effect/Context';
import * as Effect from 'effect/Effect';
import type { Actor, Snapshot, SnapshotFrom } from 'xstate';
import type { DebateInput, debateMachine } from '../machine/machine.ts';
import type { AttachedText } from '../machine/prompts.ts';
import type { LlmProvider } from '../providers/port.ts';
import type { Resumption } from '../replay/replay.ts';
import type { PersistedState } from '../replay/snapshot.ts';
import type { LeaseLost, PermanentFailure, StorageUnavailable } from '../store/errors.ts';
import type { StoredTurn } from '../store/records.ts';
import type { ActorShared } from './actor-shared.ts';
import { createDebateActor } from './debate-actors.ts';
import type { EvidencePort } from './evidence.ts';
import { judgeOf } from './judge.ts';
import { type CallPolicy, DEFAULT_CALL_POLICY } from './llm-call.ts';
import { roundsOf } from './round.ts';
import { addCall, type CallTokens, noUsage, type Usage } from './usage.ts';

export type EngineDeps = {
  provider: LlmProvider;
  judgeModel: string;
  policy?: CallPolicy;
  /** Receives every event in order. Must not throw; durable storage and publishing live behind it. */
  emit: (event: DebateEventBody) => void;
  /** The attempt being run (1 unless the debate was retried): part of each message's claimId. */
  attempt?: number;
  /**
   * Stores a finished turn before the machine hears of it (its key is its position: see replay). A failure
   * stops the round, which reports it through onFatal.
   */
  recordTurn?: (turn: StoredTurn) => Effect.Effect<void, TurnNotStored>;
  /**
   * A failure the debate cannot go on from here (a turn not stored, a defect): the node stops the actor and
   * settles the job as the failure says.
   */
  onFatal?: (error: unknown) => void;
  /**
   * Called after every step of the actor with `current`, which makes its persisted state when called: the
   * log calls it once a write, not once a step (XState copies the whole context for it). It answers the
   * latest step, so never one older than the events already emitted. Once the actor was stopped through
   * `RunningDebate.stop`, it answers the state as of the stop: stopped, the actor's children are stopped
   * too, and a state made from them would restore a round or a judge that never runs again.
   */
  onStateChange?: (current: () => PersistedState | null) => void;
  /**
   * The text of the debate's ready attachments, read when a round's first turn starts: documents attached
   * mid-debate reach the agents from the next round (a restored debate reads them again the same way).
   */
  readAttachments?: () => Promise<AttachedText[]>;
  /**
   * The debate's corpus, when it runs with the evidence engine: each turn then carries retrieved passages
   * instead of attachment excerpts, its citations are checked, and the verdict's key evidence is built
   * from the verified ones. Absent: the evidence engine is off (the verdict says so).
   */
  evidence?: EvidencePort;
  /**
   * Adds the owner's calibrated confidence to the judge's verdict before the machine hears of it, so the
   * verdict event, the stored verdict and every read agree (node/verdict-calibration.ts: the owner's stored
   * curves, for the debate's domain). Absent: the verdict stays as the judge gave it.
   */
  calibrate?: (verdict: Verdict) => Effect.Effect<Verdict>;
  /** The engine node running this actor: recorded on each history entry, so a restore shows the hand-over. */
  nodeId?: string;
  /**
   * The node's services the actor's programs run on (its logger, clock and random): the actor runs them
   * outside any fiber of the node, from xstate's callbacks. Absent: Effect's defaults.
   */
  services?: Context.Context<never>;
};

/** Why a finished turn could not be stored: the round stops, and the job with it. */
type TurnNotStored = StorageUnavailable | PermanentFailure | LeaseLost;

export type RunningDebate = {
  actor: Actor<typeof debateMachine>;
  /** Stops the actor where it is, keeping its persisted state as of now for `onStateChange`'s `current`. */
  stop: () => void;
  usage: Usage;
  /** Every state the actor entered, with the event that moved it: the data of a state-chart debug view. */
  history: TransitionRecord[];
  done: Promise<SnapshotFrom<typeof debateMachine>>;
};

/** Flattens a state value ({ running: 'speaking' }) to a path ("running.speaking"). */
export function statePath(value: unknown): string {
  if (typeof value === 'string') return value;
  const [key, child] = Object.entries(value as Record<string, unknown>)[0] ?? [];
  return key ? `${key}.${statePath(child)}` : '';
}

/**
 * Starts one debate as an actor wired to a provider — fresh, or from `resumption` when another node left it
 * unfinished — and resolves `done` when it completes or fails.
 */
export function startDebate(input: DebateInput, deps: EngineDeps, resumption?: Resumption): RunningDebate {
  const policy = deps.policy ?? DEFAULT_CALL_POLICY;
  const attempt = deps.attempt ?? 1;
  const usage: Usage = resumption ? { ...resumption.usage } : noUsage();
  const count = (call: CallTokens, kind?: 'judge') => {
    addCall(usage, call, kind);
  };
  const services = deps.services ?? Context.empty();
  const runSync = Effect.runSyncWith(services);

  const shared: ActorShared = { deps, policy, attempt, count, services };
  const work = {
    runRound: roundsOf(shared, input.debateId, resumption?.settled ?? new Map()),
    judge: judgeOf(shared),
    emit: deps.emit,
  };
  const history: TransitionRecord[] = resumption ? [...resumption.history] : [];
  // A transition is dated when its event reached the actor, not when the step ended: the events its actions
  // emit then come after it on a timeline, as they did in fact.
  let receivedAt: string | null = null;
  // The node's clock (Effect's Clock), so a test can date the chart.
  const now = () => new Date(runSync(Clock.currentTimeMillis)).toISOString();
  const record = (event: string, state: string): TransitionRecord => ({
    at: receivedAt ?? now(),
    event,
    state,
    ...(deps.nodeId ? { node: deps.nodeId } : {}),
  });
  let atStop: PersistedState | null = null;
  const persisted = (): PersistedState | null => {
    const { status } = actor.getSnapshot();
    if (status !== 'active' && status !== 'done') return atStop;
    return { machine: actor.getPersistedSnapshot(), history: [...history] };
  };
  const stop = () => {
    atStop = persisted();
    actor.stop();
  };
  const actor = createDebateActor(work, {
    input,
    ...(resumption ? { snapshot: resumption.machine as Snapshot<unknown> } : {}),
    // xstate announces a step to inspectors after its observers: the step's history entry exists only from
    // here, so the state is stored from here too (from a subscriber it would lag one entry, and a finished
    // debate's stored history would never reach its final state).
    inspect: (inspection) => {
      // The type first: xstate inspects the actor while it is being made, before `actor` is assigned.
      if (inspection.type === '@xstate.event' && inspection.actorRef === actor) {
        receivedAt ??= now();
      }
      if (inspection.type !== '@xstate.snapshot' || inspection.actorRef !== actor) return;
      const snapshot = inspection.snapshot as SnapshotFrom<typeof debateMachine>;
      const state = statePath(snapshot.value);
      if (history.at(-1)?.state !== state) {
        history.push(record(inspection.event.type, state));
      }
      receivedAt = null;
      if (deps.onStateChange && (snapshot.status === 'active' || snapshot.status === 'done')) {
        deps.onStateChange(persisted);
      }
    },
  });
  const done = finalSnapshot(actor);
  actor.start();
  if (resumption) {
    history.push(record('xstate.restore', statePath(actor.getSnapshot().value)));
    // Stored now, not with the next move: a debate restored already final (its holder died while
    // classifying or finishing) never moves again, and its chart would otherwise hide the restore.
    deps.onStateChange?.(persisted);
    if (actor.getSnapshot().status === 'done')
      return { actor, stop, usage, history, done: Promise.resolve(actor.getSnapshot()) };
  } else {
    actor.send({ type: 'START' });
  }
  return { actor, stop, usage, history, done };
}

/** The actor's final snapshot once it reaches one; rejects if it fails or is stopped first. */
function finalSnapshot(actor: Actor<typeof debateMachine>): Promise<SnapshotFrom<typeof debateMachine>> {
  return new Promise((resolve, reject) => {
    actor.subscribe({
      next: (snapshot) => {
        if (snapshot.status === 'done') resolve(snapshot);
      },
      error: reject,
      // Restored already final: done. Stopped before a final state (node shutting down): settle, so the
      // caller can hand the job back.
      complete: () => {
        const snapshot = actor.getSnapshot();
        if (snapshot.status === 'done') resolve(snapshot);
        else reject(new Error('the debate actor was stopped before it finished'));
      },
    });
  });
}
