import type { TransitionRecord } from '@verdict/core';
import * as Clock from 'effect/Clock';
import * as Context from 'effect/Context';
import * as Effect from 'effect/Effect';
import type { Actor, Snapshot, SnapshotFrom } from 'xstate';
import type { DebateInput, debateMachine } from '../machine/machine.ts';
import type { Resumption } from '../replay/replay.ts';
import type { PersistedState } from '../replay/snapshot.ts';
import type { ActorShared } from './actor-shared.ts';
import { createDebateActor } from './debate-actors.ts';
import type { EngineDeps } from './engine-deps.ts';
import { judgeOf } from './judge.ts';
import { DEFAULT_CALL_POLICY } from './llm-call.ts';
import { roundsOf } from './round.ts';
import { addCall, type CallTokens, noUsage, type Usage } from './usage.ts';

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
