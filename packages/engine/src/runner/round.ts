import { claimIdOf, type DebateEventBody } from '@verdict/contracts';
import {
  callCostNanoUsd,
  citationsInText,
  DEBATE_CALL_LIMITS,
  type PassageText,
  withGrounded,
} from '@verdict/core';
import * as Cause from 'effect/Cause';
import * as Effect from 'effect/Effect';
import * as Exit from 'effect/Exit';
import * as Schedule from 'effect/Schedule';
import { fromCallback } from 'xstate';
import { logLine } from '../logging.ts';
import type { DebateMachineEvent, RoundInput } from '../machine/machine.ts';
import type { Seat } from '../machine/panel.ts';
import { optionLetter, readTurn } from '../machine/position.ts';
import { type AttachedText, debaterPrompt, debaterSystemPrompt, type Turn } from '../machine/prompts.ts';
import type { LlmResponse } from '../providers/port.ts';
import { type SettledTurn, settledKey } from '../replay/replay.ts';
import { debateSpan } from '../tracing/spans.ts';
import type { ActorShared } from './actor-shared.ts';
import { checkedCitations, retrievalQuery } from './evidence.ts';
import { callLlm, type ProviderFailure } from './llm-call.ts';

/** How a failed lookup of cited passages is tried again: 3 more times, 100, 200 and 400 ms apart. */
const CHECK_RETRIES = { schedule: Schedule.exponential('100 millis'), times: 3 };

/**
 * The debate machine's `runRound` actor: every seat of a round speaks at once (a seat settled before a
 * restore reports its turn again instead), each finished turn is stored before the machine hears of it, and
 * the round reports ROUND_DONE — or, failing for a reason the debate cannot go on from, tells `onFatal`.
 */
export function roundActor(shared: ActorShared, debateId: string, settled: Map<string, SettledTurn>) {
  const { deps, policy, attempt, count, services } = shared;
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
            const message = `debate ${debateId}: round ${round} runs without its attachments (reading them failed)`;
            runSync(logLine('warn', message, { err: error }));
            return [];
          })
        : Promise.resolve([]);
      attachedByRound.set(round, read);
    }
    return Effect.promise(() => read);
  };

  // With the evidence engine on, the corpus is brought up to date once per round (attachments ready since
  // the last round join it), and each turn retrieves its own passages. A failed update or retrieval leaves
  // the turn with what there is, as a failed attachment read does; checking citations must not fail quietly.
  const evidence = deps.evidence;
  const preparedByRound = new Map<number, Promise<void>>();
  const passagesFor = (round: number, query: string) =>
    Effect.promise(async () => {
      if (!evidence) return [];
      let prepared = preparedByRound.get(round);
      if (!prepared) {
        prepared = evidence.prepare().catch((error: unknown) => {
          const message = `debate ${debateId}: round ${round} cites the corpus as it was (updating it failed)`;
          runSync(logLine('warn', message, { err: error }));
        });
        preparedByRound.set(round, prepared);
      }
      await prepared;
      return evidence.retrieve(query).catch((error: unknown) => {
        const message = `debate ${debateId}: a round ${round} turn runs without passages (retrieval failed)`;
        runSync(logLine('warn', message, { err: error }));
        return [];
      });
    });
  // Checking looks up only ids the turn was not given; a database blip is retried a few times before the
  // round fails (and the job is handed on), so a paid answer is not lost to one failed read.
  const citationsOf = (content: string, grounded: LlmResponse['citations'], given: PassageText[]) =>
    evidence
      ? Effect.tryPromise(() =>
          checkedCitations(evidence, withGrounded(citationsInText(content), grounded ?? []), given),
        ).pipe(Effect.retry(CHECK_RETRIES), Effect.orDie)
      : Effect.succeed(undefined);

  const speak = (seat: Seat, round: RoundInput) =>
    Effect.gen(function* () {
      deps.emit({ type: 'agent.thinking', data: { agent: seat.name, round: round.round } });
      const attached = evidence ? [] : yield* attachedFor(round.round);
      const opponents = round.previous.filter((t) => t.agent !== seat.name);
      const target = pickTarget(seat, opponents, round.seats);
      const answering =
        opponents.find((t) => t.agent === target)?.content ?? (round.round === 1 ? seat.brief : null);
      const passages = yield* passagesFor(round.round, retrievalQuery(round.brief.question, answering));
      const response = yield* callLlm(
        deps.provider,
        {
          task: 'debater',
          model: seat.model,
          system: debaterSystemPrompt(seat),
          prompt: debaterPrompt(
            round.brief,
            round.round,
            citable(round.previous, attempt),
            round.injected,
            attached,
            passages.length > 0,
          ),
          maxTokens: DEBATE_CALL_LIMITS.debater.maxOutputTokens,
          json: false,
          documents: passages.map((p) => ({ evidenceId: p.evidenceId, title: p.source.title, text: p.text })),
          hints: {
            question: round.brief.question,
            agent: seat.name,
            role: seat.role,
            stance: seat.stance,
            round: round.round,
            opponents: target ? [target] : [],
            injected: round.injected,
            attached: evidence
              ? [...new Set(passages.filter((p) => p.source.kind !== 'context').map((p) => p.source.title))]
              : attached.map((document) => document.name),
            options: round.brief.options?.length ?? 0,
            previous: round.previous.map((t) => ({ agent: t.agent, position: t.position ?? null })),
          },
        },
        policy,
      );
      const letters = round.brief.options?.map((_, i) => optionLetter(i)) ?? null;
      const { content, position } = readTurn(response.text, letters);
      const citations = yield* citationsOf(content, response.citations, passages);
      const turn: Turn = {
        agent: seat.name,
        round: round.round,
        content,
        model: response.model,
        targetAgent: round.round > 1 ? target : null,
        position,
        ...(citations ? { citations } : {}),
      };
      if (deps.recordTurn) {
        yield* deps.recordTurn({
          ...turn,
          citations: citations ?? null,
          inputTokens: response.inputTokens,
          outputTokens: response.outputTokens,
          costNanoUsd: callCostNanoUsd(response.model, response.inputTokens, response.outputTokens),
        });
      }
      // Counted once stored: a turn the debate's cost counts is one its breakdown lists.
      count(response);
      deps.emit(turnEvent(turn, attempt));
      return turn;
    }).pipe(
      debateSpan('debate.turn', {
        'debate.id': debateId,
        'debate.round': round.round,
        'debate.agent': seat.name,
      }),
    );

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

  return fromCallback<never, RoundInput>(({ input, sendBack }) => {
    const controller = new AbortController();
    const program = Effect.forEach(
      input.seats,
      (seat) =>
        Effect.flatMap(replay(seat, input, sendBack), (replayed) => (replayed ? Effect.void : spoken(seat))),
      { concurrency: 'unbounded', discard: true },
    ).pipe(debateSpan('debate.round', { 'debate.id': debateId, 'debate.round': input.round }));
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
}

/** The turns of the round before, each with the claimId a debater cites it by. */
const citable = (previous: Turn[], attempt: number) =>
  previous.map((turn) => ({ ...turn, ...agentRound(turn, attempt) }));

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
          position: turn.position ?? null,
          ...(turn.citations ? { citations: turn.citations } : {}),
        },
      }
    : {
        type: 'argument',
        data: {
          ...agentRound(turn, attempt),
          content: turn.content,
          model: turn.model,
          position: turn.position ?? null,
          ...(turn.citations ? { citations: turn.citations } : {}),
        },
      };
}

type RoundReport = Extract<DebateMachineEvent, { type: 'TURN_DONE' | 'TURN_FAILED' | 'ROUND_DONE' }>;

/** Round 2+ rebuts someone: preferably an agent of the opposite lean, else anyone who spoke. */
function pickTarget(seat: Seat, previous: Turn[], seats: Seat[]): string | null {
  const stanceOf = (name: string) => seats.find((s) => s.name === name)?.stance;
  const opposite = previous.find((t) => stanceOf(t.agent) !== seat.stance);
  return (opposite ?? previous[0])?.agent ?? null;
}
