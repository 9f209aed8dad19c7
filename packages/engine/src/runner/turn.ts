import { claimIdOf, type DebateEventBody } from '@verdict/contracts';
import { callCostNanoUsd, DEBATE_CALL_LIMITS, type PassageText } from '@verdict/core';
import * as Effect from 'effect/Effect';
import type { RoundInput } from '../machine/machine.ts';
import type { Seat } from '../machine/panel.ts';
import { optionLetter, readTurn } from '../machine/position.ts';
import { type AttachedText, debaterPrompt, debaterSystemPrompt, type Turn } from '../machine/prompts.ts';
import type { LlmRequest } from '../providers/port.ts';
import { debateSpan } from '../tracing/spans.ts';
import type { ActorShared } from './actor-shared.ts';
import { retrievalQuery } from './evidence.ts';
import { callLlm } from './llm-call.ts';
import type { RoundReading } from './round-reading.ts';

/** What a turn runs with: the debate's shared deps, and what its rounds read. */
export type TurnContext = { shared: ActorShared; debateId: string; reading: RoundReading };

/**
 * One seat's turn of a round: it reads what the round gives it, asks the seat's model, checks its citations,
 * stores the turn (before the machine hears of it), counts its cost, and emits it.
 */
export const speak = ({ shared, debateId, reading }: TurnContext, seat: Seat, round: RoundInput) =>
  Effect.gen(function* () {
    const { deps, attempt } = shared;
    deps.emit({ type: 'agent.thinking', data: { agent: seat.name, round: round.round } });
    const attached = reading.evidenceOn ? [] : yield* reading.attachedFor(round.round);
    const opponents = round.previous.filter((t) => t.agent !== seat.name);
    const target = pickTarget(seat, opponents, round.seats);
    const answering =
      opponents.find((t) => t.agent === target)?.content ?? (round.round === 1 ? seat.brief : null);
    const passages = yield* reading.passagesFor(round.round, retrievalQuery(round.brief.question, answering));
    const request = debaterRequest(seat, round, { attempt, target, attached, passages, reading });
    const response = yield* callLlm(deps.provider, request, shared.policy);
    const letters = round.brief.options?.map((_, i) => optionLetter(i)) ?? null;
    const { content, position } = readTurn(response.text, letters);
    const citations = yield* reading.citationsOf(content, response.citations, passages);
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
    shared.count(response);
    deps.emit(turnEvent(turn, attempt));
    return turn;
  }).pipe(
    debateSpan('debate.turn', {
      'debate.id': debateId,
      'debate.round': round.round,
      'debate.agent': seat.name,
    }),
  );

/** The debater's call: its prompts, the passages it may cite, and the hints the simulated model reads. */
function debaterRequest(
  seat: Seat,
  round: RoundInput,
  given: {
    attempt: number;
    target: string | null;
    attached: AttachedText[];
    passages: PassageText[];
    reading: RoundReading;
  },
): Omit<LlmRequest, 'signal'> {
  const { passages, attached } = given;
  return {
    task: 'debater',
    model: seat.model,
    system: debaterSystemPrompt(seat),
    prompt: debaterPrompt(
      round.brief,
      round.round,
      citable(round.previous, given.attempt),
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
      opponents: given.target ? [given.target] : [],
      injected: round.injected,
      attached: given.reading.evidenceOn
        ? [...new Set(passages.filter((p) => p.source.kind !== 'context').map((p) => p.source.title))]
        : attached.map((document) => document.name),
      options: round.brief.options?.length ?? 0,
      previous: round.previous.map((t) => ({ agent: t.agent, position: t.position ?? null })),
    },
  };
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

/** A turn as the event that announces it: an argument in round 1, a rebuttal of its target after. */
export function turnEvent(turn: Turn, attempt: number): DebateEventBody {
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

/** Round 2+ rebuts someone: preferably an agent of the opposite lean, else anyone who spoke. */
function pickTarget(seat: Seat, previous: Turn[], seats: Seat[]): string | null {
  const stanceOf = (name: string) => seats.find((s) => s.name === name)?.stance;
  const opposite = previous.find((t) => stanceOf(t.agent) !== seat.stance);
  return (opposite ?? previous[0])?.agent ?? null;
}
