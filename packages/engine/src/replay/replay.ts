import type { DebateEvent, DebateEventBody, DebateEventPayload, DebateEventType } from '@verdict/contracts';
import type { TransitionRecord } from '@verdict/core';
import { Effect } from 'effect';
import type { Turn } from '../machine/prompts.ts';
import { addCall, noUsage, type Usage } from '../runner/usage.ts';
import type { StoredLog } from '../store/attempt-log.ts';
import { PermanentFailure } from '../store/errors.ts';
import { unpackState } from './snapshot.ts';

/**
 * Durable replay, in one place. A debate restored on another node (after a crash, a hand-back) re-runs only
 * what was not settled, and its stream neither repeats nor skips an event:
 *
 * - **Work memoised by key.** A seat's turn in a round, once settled — stored in `debate_turns` (the turn
 *   is written before the machine hears of it) or failed for good (its `agent.failed` event stored) — is
 *   never asked of a provider again: the restored round reports it from storage (`settled`, keyed by
 *   `settledKey`). The judge's verdict is not memoised: a snapshot taken while judging asks the judge again.
 * - **Events a restore drops.** Re-run work emits its events again (a round's thinking, turns and
 *   failures); each such event has a replay key, and a second event with the same key is dropped (durable
 *   log). Every other event comes from a state transition, which a restored actor does not repeat.
 *
 * REPLAY_RULES names, for every event type, which of the two it is: adding an event type to the contracts
 * fails type-checking here until someone decides.
 */
export const REPLAY_RULES: {
  readonly [T in DebateEventType]: 'transition' | ((data: DebateEventPayload<T>) => string);
} = {
  'debate.started': 'transition',
  'round.started': 'transition',
  'agent.thinking': (data) => `thinking:${data.round}:${data.agent}`,
  argument: (data) => `turn:${data.round}:${data.agent}`,
  rebuttal: (data) => `turn:${data.round}:${data.agent}`,
  'agent.failed': (data) => `failed:${data.round}:${data.agent}`,
  'debate.paused': 'transition',
  'debate.resumed': 'transition',
  'content.injected': 'transition',
  'round.converged': 'transition',
  'synthesis.started': 'transition',
  verdict: 'transition',
  'debate.completed': 'transition',
  'debate.failed': 'transition',
};

/** The key of an event that re-run work emits again, or null for a transition's event. */
export function replayKey(event: Pick<DebateEventBody, 'type' | 'data'>): string | null {
  const rule = REPLAY_RULES[event.type] as 'transition' | ((data: unknown) => string);
  return rule === 'transition' ? null : rule(event.data);
}

/** The memo key of a seat's turn in a round. */
export const settledKey = (agent: string, round: number) => `${round}:${agent}`;

/** How a seat's turn in a round ended before a restore: spoken (and stored) or failed for good. */
export type SettledTurn = { turn: Turn } | { failed: string };

/** Where a restored debate picks up. */
export type Resumption = {
  /** The machine's persisted snapshot, its turns filled back in from storage. */
  machine: unknown;
  history: TransitionRecord[];
  /** Seats whose turn in a round is already settled: a restored round does not ask them again. */
  settled: Map<string, SettledTurn>;
  /** What the stored turns cost, counted again so the final cost is whole. */
  usage: Usage;
};

/**
 * What a node reads back to pick a debate up: where its actor was (null when it never persisted a state)
 * and the replay keys of what it already emitted.
 */
export type Restoration = {
  resumption: Resumption | null;
  events: DebateEvent[];
  storedKeys: string[];
  lastSeq: number;
  /** The debate failed before its actor ever ran (no provider) and the node died before storing that. */
  failedBeforeStart: DebateEventPayload<'debate.failed'> | null;
};

/** A stored log turned into what a restore needs; a state that refers to turns nobody stored is permanent. */
export const restorationFrom = (log: StoredLog): Effect.Effect<Restoration, PermanentFailure> =>
  Effect.try({
    try: () => {
      const last = log.events.at(-1);
      const base = {
        events: log.events,
        storedKeys: log.events.flatMap((event) => replayKey(event) ?? []),
        lastSeq: last?.seq ?? 0,
      };
      if (log.state === null) {
        return {
          ...base,
          resumption: null,
          failedBeforeStart: last?.type === 'debate.failed' ? last.data : null,
        };
      }
      const state = unpackState(
        log.state,
        log.turns.map(({ inputTokens: _in, outputTokens: _out, costNanoUsd: _cost, ...turn }) => turn),
      );
      const settled = new Map<string, SettledTurn>();
      const usage = noUsage();
      for (const { inputTokens, outputTokens, costNanoUsd, ...turn } of log.turns) {
        settled.set(settledKey(turn.agent, turn.round), { turn });
        addCall(usage, { model: turn.model, inputTokens, outputTokens }, undefined, costNanoUsd);
      }
      for (const event of log.events) {
        if (event.type !== 'agent.failed') continue;
        const key = settledKey(event.data.agent, event.data.round);
        if (!settled.has(key)) settled.set(key, { failed: event.data.reason });
      }
      return {
        ...base,
        resumption: { machine: state.machine, history: state.history, settled, usage },
        failedBeforeStart: null,
      };
    },
    catch: (error) =>
      error instanceof PermanentFailure
        ? error
        : new PermanentFailure({ reason: 'the stored state cannot be read back', cause: error }),
  });
