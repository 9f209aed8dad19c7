import { claimIdOf, type DebateEventBody, type Verdict } from '@verdict/contracts';
import type { TransitionRecord } from '@verdict/core';
import * as Cause from 'effect/Cause';
import * as Clock from 'effect/Clock';
import * as Context from 'effect/Context';
import * as Effect from 'effect/Effect';
import * as Exit from 'effect/Exit';
import { type Actor, createActor, fromCallback, fromPromise, type Snapshot, type SnapshotFrom } from 'xstate';
import { logLine } from '../logging.ts';
import {
  DebateFailure,
  type DebateInput,
  type DebateMachineEvent,
  debateMachine,
  type JudgeInput,
  type RoundInput,
} from '../machine/machine.ts';
import type { Seat } from '../machine/panel.ts';
import {
  type AttachedText,
  debaterPrompt,
  debaterSystemPrompt,
  JUDGE_SYSTEM_PROMPT,
  judgePrompt,
  type Turn,
} from '../machine/prompts.ts';
import { parseVerdict } from '../machine/verdict-parser.ts';
import type { LlmProvider } from '../providers/port.ts';
import { type Resumption, type SettledTurn, settledKey } from '../replay/replay.ts';
import type { PersistedState } from '../replay/snapshot.ts';
import type { LeaseLost, PermanentFailure, StorageUnavailable } from '../store/errors.ts';
import type { StoredTurn } from '../store/records.ts';
import { type CallPolicy, callLlm, DEFAULT_CALL_POLICY, type ProviderFailure } from './llm-call.ts';
import { addCall, noUsage, type Usage } from './usage.ts';

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
   * Called after every step of the actor with its persisted snapshot, taken then and there: a snapshot
   * read later could belong to a stopped actor, or lag the events the step emitted.
   */
  onStateChange?: (state: PersistedState) => void;
  /**
   * The text of the debate's ready attachments, read when a round's first turn starts: documents attached
   * mid-debate reach the agents from the next round (a restored debate reads them again the same way).
   */
  readAttachments?: () => Promise<AttachedText[]>;
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

/** Re-asks after the first invalid verdict; the debate fails if the judge still answers nonsense. */
const JUDGE_ATTEMPTS = 3;

export type RunningDebate = {
  actor: Actor<typeof debateMachine>;
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
  const settled = resumption?.settled ?? new Map<string, SettledTurn>();
  const count = (call: { model: string; inputTokens: number; outputTokens: number }) => addCall(usage, call);
  const services = deps.services ?? Context.empty();
  const runSync = Effect.runSyncWith(services);

  // One read per round, shared by its turns, so every agent of a round sees the same documents. A failed
  // read leaves the round without them rather than failing the debate — the documents add to the agents'
  // prompts, they are not the question, and the turns' own storage will tell if the database is really gone
  // — and says so in the log, once for the round.
  const attachedByRound = new Map<number, Promise<AttachedText[]>>();
  const attachedFor = (round: number) => {
    let read = attachedByRound.get(round);
    if (!read) {
      read = deps.readAttachments
        ? deps.readAttachments().catch((error: unknown) => {
            const message = `debate ${input.debateId}: round ${round} runs without its attachments (reading them failed)`;
            runSync(logLine('warn', message, { err: error }));
            return [];
          })
        : Promise.resolve([]);
      attachedByRound.set(round, read);
    }
    return Effect.promise(() => read);
  };

  const speak = (seat: Seat, round: RoundInput) =>
    Effect.gen(function* () {
      deps.emit({ type: 'agent.thinking', data: { agent: seat.name, round: round.round } });
      const attached = yield* attachedFor(round.round);
      const opponents = round.previous.filter((t) => t.agent !== seat.name);
      const target = pickTarget(seat, opponents, round.seats);
      const response = yield* callLlm(
        deps.provider,
        {
          task: 'debater',
          model: seat.model,
          system: debaterSystemPrompt(seat),
          prompt: debaterPrompt(round.brief, round.round, round.previous, round.injected, attached),
          maxTokens: 600,
          json: false,
          hints: {
            question: round.brief.question,
            agent: seat.name,
            role: seat.role,
            stance: seat.stance,
            round: round.round,
            opponents: target ? [target] : [],
            injected: round.injected,
            attached: attached.map((document) => document.name),
          },
        },
        policy,
      );
      count(response);
      const turn: Turn = {
        agent: seat.name,
        round: round.round,
        content: response.text,
        model: response.model,
        targetAgent: round.round > 1 ? target : null,
      };
      if (deps.recordTurn) {
        yield* deps.recordTurn({
          ...turn,
          inputTokens: response.inputTokens,
          outputTokens: response.outputTokens,
        });
      }
      deps.emit(turnEvent(turn, attempt));
      return turn;
    });

  /** A seat whose turn was settled before a restore: report it again (events already stored are dropped). */
  const replay = (seat: Seat, round: RoundInput, sendBack: (report: RoundReport) => void) =>
    Effect.sync(() => {
      const before = settled.get(settledKey(seat.name, round.round));
      if (!before) return false;
      if ('turn' in before) {
        deps.emit({ type: 'agent.thinking', data: { agent: seat.name, round: round.round } });
        deps.emit(turnEvent(before.turn, attempt));
        sendBack({ type: 'TURN_DONE', turn: before.turn });
      } else {
        deps.emit({
          type: 'agent.failed',
          data: { agent: seat.name, round: round.round, reason: before.failed },
        });
        sendBack({ type: 'TURN_FAILED', agent: seat.name, round: round.round, reason: before.failed });
      }
      return true;
    });

  const runRound = fromCallback<never, RoundInput>(({ input, sendBack }) => {
    const controller = new AbortController();
    const program = Effect.forEach(
      input.seats,
      (seat) =>
        Effect.flatMap(replay(seat, input, sendBack), (replayed) => (replayed ? Effect.void : spoken(seat))),
      { concurrency: 'unbounded', discard: true },
    );
    function spoken(seat: Seat) {
      return speak(seat, input).pipe(
        Effect.tap((turn) => Effect.sync(() => sendBack({ type: 'TURN_DONE', turn }))),
        Effect.catchTag('ProviderFailure', (failure: ProviderFailure) =>
          Effect.sync(() => {
            deps.emit({
              type: 'agent.failed',
              data: { agent: seat.name, round: input.round, reason: failure.message },
            });
            sendBack({
              type: 'TURN_FAILED',
              agent: seat.name,
              round: input.round,
              reason: failure.message,
            });
          }),
        ),
      );
    }
    void Effect.runPromiseExitWith(services)(program, { signal: controller.signal }).then((exit) => {
      // Interrupted by a skip or a stop, the machine has already moved on; anything else is fatal.
      if (controller.signal.aborted) return;
      if (Exit.isSuccess(exit)) sendBack({ type: 'ROUND_DONE' });
      else deps.onFatal?.(Cause.squash(exit.cause));
    });
    return () => controller.abort();
  });

  const judge = fromPromise<Verdict, JudgeInput>(({ input, signal }) =>
    Effect.runPromiseWith(services)(judgeProgram(input, deps, policy, count), { signal }),
  );

  const machine = debateMachine.provide({
    actors: { runRound: runRound as never, judge },
    actions: { emit: (_, event) => deps.emit(event) },
  });
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
  const actor = createActor(machine, {
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
        deps.onStateChange({ machine: actor.getPersistedSnapshot(), history: [...history] });
      }
    },
  });
  const done = new Promise<SnapshotFrom<typeof debateMachine>>((resolve, reject) => {
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
  actor.start();
  if (resumption) {
    history.push(record('xstate.restore', statePath(actor.getSnapshot().value)));
    // Stored now, not with the next move: a debate restored already final (its holder died while
    // classifying or finishing) never moves again, and its chart would otherwise hide the restore.
    deps.onStateChange?.({ machine: actor.getPersistedSnapshot(), history: [...history] });
    if (actor.getSnapshot().status === 'done')
      return { actor, usage, history, done: Promise.resolve(actor.getSnapshot()) };
  } else {
    actor.send({ type: 'START' });
  }
  return { actor, usage, history, done };
}

/** The message's position and the claimId audience votes name it by. */
const agentRound = (turn: Turn, attempt: number) => ({
  agent: turn.agent,
  round: turn.round,
  claimId: claimIdOf({ attempt, round: turn.round, agent: turn.agent }),
});

function turnEvent(turn: Turn, attempt: number): DebateEventBody {
  return turn.targetAgent
    ? {
        type: 'rebuttal',
        data: {
          ...agentRound(turn, attempt),
          content: turn.content,
          model: turn.model,
          targetAgent: turn.targetAgent,
        },
      }
    : {
        type: 'argument',
        data: { ...agentRound(turn, attempt), content: turn.content, model: turn.model },
      };
}

type RoundReport = Extract<DebateMachineEvent, { type: 'TURN_DONE' | 'TURN_FAILED' | 'ROUND_DONE' }>;

/** Round 2+ rebuts someone: preferably an agent of the opposite lean, else anyone who spoke. */
function pickTarget(seat: Seat, previous: Turn[], seats: Seat[]): string | null {
  const stanceOf = (name: string) => seats.find((s) => s.name === name)?.stance;
  const opposite = previous.find((t) => stanceOf(t.agent) !== seat.stance);
  return (opposite ?? previous[0])?.agent ?? null;
}

function judgeProgram(
  input: JudgeInput,
  deps: EngineDeps,
  policy: CallPolicy,
  count: (call: { model: string; inputTokens: number; outputTokens: number }) => void,
) {
  return Effect.gen(function* () {
    let prompt = judgePrompt(input.brief, input.seats, input.turns, input.missing);
    for (let attempt = 1; attempt <= JUDGE_ATTEMPTS; attempt++) {
      const response = yield* callLlm(
        deps.provider,
        {
          task: 'synthesizer',
          model: deps.judgeModel,
          system: JUDGE_SYSTEM_PROMPT,
          prompt,
          maxTokens: 2000,
          json: true,
        },
        policy,
      ).pipe(
        Effect.mapError(
          (failure) =>
            new DebateFailure(
              failure.kind === 'timeout' ? 'PROVIDER_TIMEOUT' : 'PROVIDER_ERROR',
              `The judge's provider failed: ${failure.message}`,
              { cause: failure },
            ),
        ),
      );
      count(response);
      const parsed = parseVerdict(response.text, input.missing);
      if (parsed.ok) return parsed.verdict;
      prompt = `${prompt}\n\nYour previous answer was not a valid verdict (${parsed.problem}). Answer again with the JSON object only.`;
    }
    return yield* Effect.fail(new DebateFailure('PROVIDER_ERROR', 'The judge returned no valid verdict'));
  });
}
