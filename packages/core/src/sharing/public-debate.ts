import type { EntityManager } from '@mikro-orm/core';
import type { Citation, EvidencePassage, PanelMember, TranscriptEntry } from '@verdict/contracts';
import { usdOfNano } from '../routing/prices.ts';
import { sharingQuery } from './sharing-resources.ts';

/** A stored event, as the public read hands it to the HTTP layer (which shapes `data` as the stream does). */
export type PublicEventRow = { seq: number; type: string; data: Record<string, unknown> };

/** What a link shows, before the HTTP layer shapes the events as the debate stream does. */
export type PublicDebateRead = {
  id: string;
  question: string;
  context: string | null;
  status: string;
  mode: string | null;
  isPublic: boolean;
  createdAt: string;
  completedAt: string | null;
  panel: PanelMember[];
  verdict: unknown;
  transcript: TranscriptEntry[];
  events: PublicEventRow[];
  cost: unknown;
  /** The passages the transcript cites (evidence engine on; empty otherwise). */
  citedPassages: EvidencePassage[];
  settings: { allowComments: boolean; allowFork: boolean };
  viewCount: number;
};

export type TurnUsage = { inputTokens: number; outputTokens: number; costUsd: number | null };

/** The tokens and cost of each turn of the debate's attempt, by `round:agent`. */
export async function turnUsage(em: EntityManager, debate: { id: string; attempt: number }) {
  const turns = await sharingQuery(em)
    .selectFrom('debate_turns')
    .select(['round', 'agent', 'input_tokens', 'output_tokens', 'cost_nano_usd'])
    .where('debate_id', '=', debate.id)
    .where('attempt', '=', debate.attempt)
    .execute();
  return new Map<string, TurnUsage>(
    turns.map((turn) => [
      `${turn.round}:${turn.agent}`,
      {
        inputTokens: turn.input_tokens,
        outputTokens: turn.output_tokens,
        costUsd: turn.cost_nano_usd === null ? null : usdOfNano(Number(turn.cost_nano_usd)),
      },
    ]),
  );
}

/** The panel as the debate announced it (debate.started), or none before it started. */
export function panelOf(events: PublicEventRow[]): PanelMember[] {
  const started = events.find((event) => event.type === 'debate.started');
  const panel = started?.data.panel;
  return Array.isArray(panel) ? (panel as PanelMember[]) : [];
}

/** Every argument and rebuttal in the order spoken, with the claimId votes name it by. */
export function transcriptOf(events: PublicEventRow[]): TranscriptEntry[] {
  return events.flatMap((event): TranscriptEntry[] => {
    if (event.type !== 'argument' && event.type !== 'rebuttal') return [];
    const data = event.data as {
      claimId: string;
      agent: string;
      round: number;
      content: string;
      targetAgent?: string;
      citations?: Citation[];
    };
    return [
      {
        claimId: data.claimId,
        type: event.type,
        agent: data.agent,
        round: data.round,
        targetAgent: data.targetAgent ?? null,
        content: data.content,
        ...(data.citations ? { citations: data.citations } : {}),
        usage: null,
      },
    ];
  });
}
