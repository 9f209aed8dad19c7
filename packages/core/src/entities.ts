/**
 * Every entity of the service, for the ORM: listed here, at the top of the domain, so the database layer
 * below knows none of the features above it.
 */
import { Session } from './accounts/session.entity.ts';
import { User } from './accounts/user.entity.ts';
import { Attachment } from './attachments/attachment.entity.ts';
import { AttachmentBlob } from './attachments/attachment-blob.entity.ts';
import { AuditChain } from './audit/audit-chain.entity.ts';
import { AuditCheckpoint } from './audit/audit-checkpoint.entity.ts';
import { AuditEntry } from './audit/audit-entry.entity.ts';
import { BillingCustomer } from './billing/billing-customer.entity.ts';
import { CreditLedgerEntry } from './billing/credit-ledger.entity.ts';
import { Invoice } from './billing/invoice.entity.ts';
import { StripeEvent } from './billing/stripe-event.entity.ts';
import { Subscription } from './billing/subscription.entity.ts';
import { ChainNode } from './chains/chain-node.entity.ts';
import { DecisionChain } from './chains/decision-chain.entity.ts';
import { Collection } from './collections/collection.entity.ts';
import { CollectionItem } from './collections/collection-item.entity.ts';
import { Comment } from './comments/comment.entity.ts';
import { Debate } from './debates/debate.entity.ts';
import { DebateCall } from './debates/debate-call.entity.ts';
import { DebateEventRow } from './debates/debate-event.entity.ts';
import { DebateSnapshot } from './debates/debate-snapshot.entity.ts';
import { DebateTurn } from './debates/debate-turn.entity.ts';
import { DeletedDebate } from './debates/deleted-debate.entity.ts';
import { IdempotencyKey } from './debates/idempotency-key.entity.ts';
import { DebateTranscript } from './debates/transcripts/debate-transcript.entity.ts';
import { EvidencePassage } from './evidence/evidence-passage.entity.ts';
import { ApiKey } from './keys/api-key.entity.ts';
import { Notification } from './notifications/notification.entity.ts';
import { NotificationPreferences } from './notifications/notification-preferences.entity.ts';
import { WebhookOutboxEntry } from './outbox/outbox-entry.entity.ts';
import { CalibrationCurve } from './outcomes/calibration/calibration-curve.entity.ts';
import { Outcome } from './outcomes/outcome.entity.ts';
import { ScoreWork } from './outcomes/score-work.entity.ts';
import { UserScore } from './outcomes/user-score.entity.ts';
import { RateLimitCounter } from './ratelimit/rate-limit-counter.entity.ts';
import { ArgumentVote } from './reactions/argument-vote.entity.ts';
import { Poll } from './reactions/poll.entity.ts';
import { PollVote } from './reactions/poll-vote.entity.ts';
import { ScheduledDebate } from './scheduled-debates/scheduled-debate.entity.ts';
import { ScheduledRun } from './scheduled-debates/scheduled-run.entity.ts';
import { SearchHistory } from './search/search-history.entity.ts';
import { ShareLink } from './sharing/share-link.entity.ts';
import { DebateEmbedding } from './similar/debate-embedding.entity.ts';
import { EmbeddingWork } from './similar/embedding-work.entity.ts';
import { SsoConnection } from './sso/sso-connection.entity.ts';
import { SsoIdentity } from './sso/sso-identity.entity.ts';
import { SsoRequest } from './sso/sso-request.entity.ts';
import { KeyUsage } from './usage/key-usage.entity.ts';
import { Webhook } from './webhooks/webhook.entity.ts';
import { WebhookDelivery } from './webhooks/webhook-delivery.entity.ts';
import { WebhookDeliveryAttempt } from './webhooks/webhook-delivery-attempt.entity.ts';
import { Workspace } from './workspaces/workspace.entity.ts';
import { WorkspaceMember } from './workspaces/workspace-member.entity.ts';

export const entities = [
  User,
  Session,
  ApiKey,
  CreditLedgerEntry,
  Debate,
  DebateEventRow,
  DebateTranscript,
  DebateTurn,
  DebateCall,
  IdempotencyKey,
  DebateSnapshot,
  DeletedDebate,
  WebhookOutboxEntry,
  RateLimitCounter,
  Outcome,
  UserScore,
  ScoreWork,
  CalibrationCurve,
  Collection,
  CollectionItem,
  DecisionChain,
  ChainNode,
  ShareLink,
  Comment,
  Notification,
  NotificationPreferences,
  DebateEmbedding,
  EmbeddingWork,
  ArgumentVote,
  Poll,
  PollVote,
  SearchHistory,
  Workspace,
  WorkspaceMember,
  KeyUsage,
  ScheduledDebate,
  ScheduledRun,
  BillingCustomer,
  Subscription,
  Invoice,
  StripeEvent,
  Webhook,
  WebhookDelivery,
  WebhookDeliveryAttempt,
  Attachment,
  AttachmentBlob,
  EvidencePassage,
  AuditEntry,
  AuditChain,
  AuditCheckpoint,
  SsoConnection,
  SsoIdentity,
  SsoRequest,
];
