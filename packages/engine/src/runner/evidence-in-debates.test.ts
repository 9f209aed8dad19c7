import type { Citation, CitedEvidence, DebateEventBody, EvidenceSource } from '@verdict/contracts';
import { type PassageText, quoteOffsetIn } from '@verdict/core';
import { Effect } from 'effect';
import { describe, expect, it } from 'vitest';
import { seatPanel } from '../machine/panel.ts';
import { EVIDENCE_INSTRUCTION } from '../machine/prompts.ts';
import type { LlmRequest } from '../providers/port.ts';
import { simulatedProvider } from '../providers/simulated.ts';
import type { StoredTurn } from '../store/records.ts';
import type { EvidencePort } from './evidence.ts';
import { startDebate } from './run-debate.ts';

const REPORT: EvidenceSource = {
  kind: 'attachment',
  attachmentId: '3f0b1c2d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
  title: 'hiring-report.pdf',
};
const CONTEXT: EvidenceSource = { kind: 'context', title: 'Context' };

/** A small corpus as core's evidence/ would store it: two sources, offsets into each source's text. */
const CORPUS: PassageText[] = [
  {
    evidenceId: 'E1',
    source: CONTEXT,
    start: 0,
    text: 'The team closed forty support tickets a week in spring and ninety a week by autumn.',
  },
  {
    evidenceId: 'E2',
    source: REPORT,
    start: 0,
    text: 'Hiring two engineers costs about three hundred thousand dollars a year including benefits and equipment.',
  },
  {
    evidenceId: 'E3',
    source: REPORT,
    start: 1_180,
    text: 'Contractors ramp up in two weeks on average, while new employees need three months to be productive.',
  },
];

/**
 * The corpus behind the engine's evidence port, in memory (the port's real adapter over PostgreSQL is
 * node/debate-evidence.ts, covered end to end): every turn retrieves all of it.
 */
function inMemoryEvidence(): EvidencePort & { prepared: number } {
  const port = {
    prepared: 0,
    prepare: async () => {
      port.prepared++;
    },
    retrieve: async () => CORPUS,
    passages: async (ids: readonly string[]) =>
      new Map(CORPUS.filter((p) => ids.includes(p.evidenceId)).map((p) => [p.evidenceId, p])),
  };
  return port;
}

/** A finished simulated debate, with what its debaters were asked, its stored turns, events and verdict. */
async function debate(evidence: EvidencePort | undefined) {
  const simulated = simulatedProvider();
  const requests: LlmRequest[] = [];
  const stored: StoredTurn[] = [];
  const events: DebateEventBody[] = [];
  const done = startDebate(
    {
      debateId: '7d1e2f3a-4b5c-4d6e-8f7a-9b0c1d2e3f4a',
      question: 'Should we hire two engineers this quarter?',
      context: CORPUS[0]?.text ?? null,
      mode: 'balanced',
      seats: seatPanel(4, ['simulated/sonnet']),
      rounds: 3,
    },
    {
      provider: {
        name: 'capturing',
        complete: (request) => {
          if (request.task === 'debater') requests.push(request);
          return simulated.complete(request);
        },
      },
      judgeModel: 'simulated/opus',
      policy: { timeoutMs: 500, retries: 1, backoffMs: 1 },
      emit: (event) => events.push(event),
      recordTurn: (turn) => Effect.sync(() => void stored.push(turn)),
      ...(evidence ? { evidence } : {}),
    },
  ).done;
  const snapshot = await done;
  expect(snapshot.value).toBe('completed');
  return { requests, stored, events, verdict: snapshot.context.verdict };
}

const citationsOf = (events: DebateEventBody[]): Citation[] =>
  events.flatMap((event) =>
    event.type === 'argument' || event.type === 'rebuttal' ? (event.data.citations ?? []) : [],
  );

describe('a debate with the evidence engine', () => {
  it('gives each debater its passages as documents, not in the prompt, with the instruction to cite them', async () => {
    const evidence = inMemoryEvidence();
    const { requests } = await debate(evidence);
    expect(requests.length).toBe(12);
    for (const request of requests) {
      expect(request.documents?.map((d) => d.evidenceId)).toEqual(['E1', 'E2', 'E3']);
      expect(request.documents?.[1]?.title).toBe('hiring-report.pdf');
      expect(request.prompt).toContain(EVIDENCE_INSTRUCTION);
      expect(request.prompt).not.toContain('three hundred thousand dollars');
    }
    // The corpus is brought up to date once a round, not once a turn.
    expect(evidence.prepared).toBe(3);
  });

  it('checks every citation when the turn is stored: right quotes verified, wrong ones kept and marked', async () => {
    const { stored, events } = await debate(inMemoryEvidence());
    const citations = citationsOf(events);
    expect(citations.some((c) => c.verified)).toBe(true);
    expect(citations.some((c) => !c.verified && c.quote !== null)).toBe(true);
    for (const citation of citations) {
      const passage = CORPUS.find((p) => p.evidenceId === citation.evidenceId);
      const holds =
        passage !== undefined &&
        (citation.quote === null || quoteOffsetIn(passage.text, citation.quote) !== null);
      expect(citation.verified).toBe(holds);
    }
    // What the stream says is what was stored with the turn, and the wrong quote stays in the text.
    expect(stored.flatMap((turn) => turn.citations ?? [])).toEqual(citations);
    const wrong = citations.find((c) => !c.verified && c.quote !== null);
    expect(stored.some((turn) => wrong?.quote && turn.content.includes(wrong.quote))).toBe(true);
  });

  it('builds key evidence from verified citations only, each quote found in its passage at its offset', async () => {
    const { verdict, events } = await debate(inMemoryEvidence());
    expect(verdict?.evidence).toBe('on');
    const key = (verdict?.keyEvidence ?? []) as CitedEvidence[];
    expect(key.length).toBeGreaterThan(0);
    const claimIds = new Set(
      events.flatMap((e) => (e.type === 'argument' || e.type === 'rebuttal' ? [e.data.claimId] : [])),
    );
    const unverified = citationsOf(events).filter((c) => !c.verified);
    for (const entry of key) {
      const passage = CORPUS.find((p) => p.evidenceId === entry.evidenceId);
      expect(entry.verified).toBe(true);
      expect(entry.source).toEqual(passage?.source);
      expect(passage && quoteOffsetIn(passage.text, entry.quote)).toBe(entry.offset - (passage?.start ?? 0));
      expect(entry.supports.length).toBeGreaterThan(0);
      for (const claimId of entry.supports) expect(claimIds.has(claimId)).toBe(true);
      expect(unverified.some((c) => c.quote === entry.quote && c.evidenceId === entry.evidenceId)).toBe(
        false,
      );
    }
  });
});

describe('a debate without the evidence engine', () => {
  it('sends no documents, records no citations, and its verdict says the engine was off', async () => {
    const { requests, stored, events, verdict } = await debate(undefined);
    expect(requests.every((r) => (r.documents ?? []).length === 0)).toBe(true);
    expect(requests.every((r) => !r.prompt.includes(EVIDENCE_INSTRUCTION))).toBe(true);
    expect(stored.every((turn) => turn.citations === null)).toBe(true);
    expect(citationsOf(events)).toEqual([]);
    expect(verdict?.evidence).toBe('off');
  });
});
