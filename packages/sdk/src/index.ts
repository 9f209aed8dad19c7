export { Audit } from './audit.ts';
export type { Backoff } from './backoff.ts';
export {
  Account,
  Debates,
  Keys,
  Notifications,
  Outcomes,
  type RestClient,
  Scores,
  Search,
  Sharing,
  Verdict,
  type VerdictClientOptions,
  Verdicts,
} from './client.ts';
export { type ErrorExtra, type Plan, PlanRequiredError, VerdictError } from './errors.ts';
export type { DebateStreamEvent, DebateStreamEventType, NotificationStreamEvent } from './events.ts';
export type { components, operations, paths } from './generated/openapi.ts';
export type {
  AppRouter,
  AppRouterErrorShape,
  AppRouterRecord,
  DebateStreamEventData,
  NotificationData,
} from './generated/router.ts';
export { citedEvidenceOf, isCitedEvidence } from './key-evidence.ts';
export { type PlanRequirement, planRequiredOf } from './plan-required.ts';
export type * from './rest-types.ts';
export type { SseMessage, StreamOptions } from './sse.ts';
export { Sso } from './sso.ts';
export type { RequestOptions, RetryWait } from './transport.ts';
export { createVerdictTRPCClient, type VerdictTRPCClientOptions } from './trpc.ts';

/** This SDK's version: its major pairs with the API's (SDK 1.x for API v1). */
export const VERSION = '1.0.0';
