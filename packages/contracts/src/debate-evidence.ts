import { z } from 'zod';
import { DebateStatus } from './debates.ts';
import { EvidenceId, EvidenceMode, EvidenceSource } from './evidence.ts';

/** A claim's citation of a passage, as the evidence read lists it under the passage. */
export const PassageCitation = z
  .object({
    claimId: z.string(),
    agent: z.string(),
    round: z.number().int().min(1),
    quote: z.string().nullable(),
    verified: z.boolean(),
  })
  .meta({ id: 'PassageCitation' });
export type PassageCitation = z.infer<typeof PassageCitation>;

/** One passage of a debate's corpus with who cited it and what it bears on. */
export const EvidencePassage = z
  .object({
    evidenceId: EvidenceId,
    source: EvidenceSource,
    text: z.string(),
    /** Where the passage lies in its source's extracted text, in characters: [start, end). */
    start: z.number().int().min(0),
    end: z.number().int().min(0),
    citations: z.array(PassageCitation),
    /** Claims that cited it with a verified citation. */
    supports: z.array(z.string()),
    /** Claims answered by a claim that cited it with a verified citation (rebutted with this passage). */
    undercuts: z.array(z.string()),
  })
  .meta({ id: 'EvidencePassage' });
export type EvidencePassage = z.infer<typeof EvidencePassage>;

/** GET /api/debates/:id/evidence and /v1/verdicts/:id/evidence: a debate's corpus and its citations. */
export const DebateEvidence = z
  .object({
    debateId: z.uuid(),
    status: DebateStatus,
    attempt: z.number().int().min(1),
    /** off: the debate ran without the evidence engine (attachments as excerpts) and has no corpus. */
    evidence: EvidenceMode,
    passages: z.array(EvidencePassage),
  })
  .meta({ id: 'DebateEvidence' });
export type DebateEvidence = z.infer<typeof DebateEvidence>;
