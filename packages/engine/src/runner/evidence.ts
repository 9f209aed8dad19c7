import type { Citation } from '@verdict/contracts';
import { type CitationMention, checkCitations, type PassageText } from '@verdict/core';

/**
 * What a debate with the evidence engine on reads of its corpus (node/job/start.ts builds it over core's
 * evidence/ for the debate; tests give their own). Absent from EngineDeps: the evidence engine is off
 * and attachments go into prompts as excerpts.
 */
export type EvidencePort = {
  /** Brings the corpus up to date with the sources ready now: once at the start of every round. */
  prepare: () => Promise<void>;
  /** The passages one turn carries: the most relevant to `query`, within the prompt's budget. */
  retrieve: (query: string) => Promise<PassageText[]>;
  /** The passages named, by evidenceId (those that do not exist are simply not in the map). */
  passages: (evidenceIds: readonly string[]) => Promise<ReadonlyMap<string, PassageText>>;
};

/**
 * The citations of a turn checked against the corpus; none when the turn cites nothing. The passages the
 * turn was given are checked as they are; only ids it was not given (copied from an opponent's turn, or made
 * up) are looked up.
 */
export async function checkedCitations(
  evidence: EvidencePort,
  mentions: readonly CitationMention[],
  given: readonly PassageText[],
): Promise<Citation[]> {
  if (mentions.length === 0) return [];
  const known = new Map(given.map((passage) => [passage.evidenceId, passage]));
  const others = [...new Set(mentions.map((m) => m.evidenceId))].filter((id) => !known.has(id));
  const looked = others.length > 0 ? await evidence.passages(others) : new Map<string, PassageText>();
  return checkCitations(mentions, (id) => (known.get(id) ?? looked.get(id))?.text);
}

/**
 * What a turn looks for in the corpus: the question, and what it must answer this round — the claim it
 * rebuts — or, in the opening round, its seat's brief, so seats of one panel do not all read the same
 * passages.
 */
export const retrievalQuery = (question: string, answering: string | null) =>
  answering ? `${question}\n${answering}` : question;
