// First, before any schema is built: zod compiles object parsers with `new Function` unless told not to,
// and the console's Content-Security-Policy forbids eval (the attempt alone is reported as a violation).
import './zod-without-eval.ts';

/**
 * The contracts the server validates with, for the console's forms to check against before sending. (The
 * tag patterns the pages render turns with come from `@verdict/contracts/tags`, without zod.)
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
  CreateApiKeyInput,
  CreateDebateInput,
  CreateWorkspaceInput,
  InviteMemberInput,
  LoginInput,
  MIN_PASSWORD_LENGTH,
  MODE_PANEL,
  PLAN_NAMES,
  PutSsoConnectionInput,
  RecordOutcomeInput,
  RegisterInput,
  SSO_REFUSALS,
} from '@verdict/contracts';
