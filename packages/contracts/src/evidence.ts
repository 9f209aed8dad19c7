import { z } from 'zod';

/**
 * A passage of a debate's corpus, named as debaters cite it: `E` and its number in the debate's own
 * numbering (E1, E2 … in the order the passages were stored; a passage keeps its number for good).
 */
export const EvidenceId = z
  .string()
  .regex(/^E[1-9][0-9]{0,5}$/)
  .meta({ description: "A passage of the debate's corpus as debaters cite it: E1, E2 …", examples: ['E3'] });
export type EvidenceId = z.infer<typeof EvidenceId>;

export { EVIDENCE_CITATION_PATTERN, evidenceTag } from './tags.ts';

/** Where a passage comes from: an uploaded file, a fetched page (an attachment too), or the debate's context. */
export const EvidenceSource = z
  .object({
    kind: z.enum(['attachment', 'page', 'context']),
    /** The attachment it was cut from (files and fetched pages); absent for the context. */
    attachmentId: z.uuid().optional(),
    /** The page's address, for a fetched page. */
    url: z.string().optional(),
    /** The file's name, the page's title (or address), or "Context". */
    title: z.string(),
  })
  .meta({ id: 'EvidenceSource' });
export type EvidenceSource = z.infer<typeof EvidenceSource>;

/**
 * One citation in a turn as the engine checked it when the turn was stored: the passage exists in this
 * debate's corpus, and the quote (if any) occurs in it (ARCHITECTURE.md, "Evidence engine"). A citation that
 * fails stays in the text; `verified: false` marks it.
 */
export const Citation = z
  .object({
    evidenceId: EvidenceId,
    /** The words the turn quotes from the passage; null when it cites without quoting. */
    quote: z.string().nullable(),
    verified: z.boolean(),
  })
  .meta({ id: 'Citation' });
export type Citation = z.infer<typeof Citation>;

/**
 * A key piece of evidence of a verdict with the evidence engine on: built by the engine from the turns'
 * verified citations (never written by the judge), naming the passage, its source, the quoted words and
 * where they start in the source's text, and the claims that cited it.
 */
export const CitedEvidence = z
  .object({
    evidenceId: EvidenceId,
    source: EvidenceSource,
    /** The quoted words; for a citation that named the passage without quoting, the passage's opening. */
    quote: z.string().min(1),
    /** Where the quote starts in the source's extracted text, in characters. */
    offset: z.number().int().min(0),
    /** The claims (claimIds) that cited it. */
    supports: z.array(z.string()),
    /** Always true here: an unverified citation never becomes key evidence. */
    verified: z.boolean(),
  })
  .meta({ id: 'CitedEvidence' });
export type CitedEvidence = z.infer<typeof CitedEvidence>;

/**
 * A key piece of evidence as the judge wrote it: verdicts of debates without the evidence engine (plans
 * without it, and every verdict stored before it existed).
 *
 * @example
 * { claim: 'Churn doubled after the last price rise', source: 'risk-analyst, round 1',
 *   supports: 'against', weight: 'high' }
 */
export const JudgedEvidence = z
  .object({
    claim: z.string().min(1),
    /** Who or what put it forward: an agent and round, or an attachment. */
    source: z.string(),
    supports: z.enum(['for', 'against', 'mixed']),
    weight: z.enum(['low', 'medium', 'high']),
  })
  .meta({ id: 'JudgedEvidence' });
export type JudgedEvidence = z.infer<typeof JudgedEvidence>;

/** One element of `keyEvidence`: cited and verified (evidence engine on) or as the judge wrote it (off). */
export const KeyEvidence = z.union([CitedEvidence, JudgedEvidence]).meta({ id: 'KeyEvidence' });
export type KeyEvidence = z.infer<typeof KeyEvidence>;

/** Whether the evidence engine grounded a debate: on (the owner's plan includes it) or off (excerpts). */
export const EvidenceMode = z.enum(['on', 'off']);
export type EvidenceMode = z.infer<typeof EvidenceMode>;
