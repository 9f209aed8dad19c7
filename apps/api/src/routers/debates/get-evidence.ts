import { DebateEvidence, DebateIdInput } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';

/** What the evidence read answers besides the debate's corpus, shared by /api and /v1. */
export const EVIDENCE_ERRORS = {
  NOT_FOUND: 'Missing, deleted, or a debate the caller may not read',
  BYOK_REQUIRED:
    "The caller's plan has no evidence engine (Pro, BYOK Pro and Enterprise have); requiredPlan and " +
    'upgradeUrl say what to choose and where',
} as const;

export const EVIDENCE_DESCRIPTION =
  "For whoever may read the debate, on a plan with the evidence engine (the caller's plan decides, as for " +
  "the argument graph). The debate's corpus: every passage (E1, E2 …) cut from its ready attachments, " +
  'fetched pages and context, with its source and character offsets, the citations of the current ' +
  "attempt's turns that name it (verified or not, as the engine checked them when the turn was stored), " +
  'the claims it supports (cited verifiably) and those it undercuts (rebutted by a claim that cited it). ' +
  'A debate that ran without the evidence engine answers evidence "off" and no passages.';

export const getEvidence = userProcedure
  .meta({
    errors: EVIDENCE_ERRORS,
    extension: true,
    openapi: {
      method: 'GET',
      path: '/api/debates/{id}/evidence',
      summary: "A debate's corpus of passages, who cited each and what each supports or undercuts",
      description: EVIDENCE_DESCRIPTION,
    },
  })
  .input(DebateIdInput)
  .output(DebateEvidence)
  .query(({ ctx, input }) => ctx.services.evidence.read(ctx.caller.userId, input.id));
