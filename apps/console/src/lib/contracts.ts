// First, before any schema is built: zod compiles object parsers with `new Function` unless told not to,
// and the console's Content-Security-Policy forbids eval (the attempt alone is reported as a violation).
import './zod-without-eval.ts';

/**
 * The contracts the server validates with, for the console's forms to check against before sending, and the
 * tag patterns the engine reads turns with, for the pages to show those tags as links.
 */
export type {
  Citation,
  CitedEvidence,
  DebateMode,
  EvidencePassage,
  EvidenceSource,
  KeyEvidence,
} from '@verdict/contracts';
export {
  CITATION_PATTERN,
  CreateApiKeyInput,
  CreateDebateInput,
  CreateWorkspaceInput,
  EVIDENCE_CITATION_PATTERN,
  InviteMemberInput,
  LoginInput,
  MIN_PASSWORD_LENGTH,
  MODE_PANEL,
  PLAN_NAMES,
  RecordOutcomeInput,
  RegisterInput,
} from '@verdict/contracts';
