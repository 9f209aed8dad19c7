import type { EntityManager } from '@mikro-orm/core';
import type { DebateMode, FundingSource } from '@verdict/contracts';
import type { FundingRoute } from '../../billing/funding.ts';
import type { KeyRouting } from '../../routing/models.ts';
import type { DocumentSize } from '../../routing/prompt-sizes.ts';
import type { ByokKeys } from '../provider-keys-header.ts';

/** What a caller asks for; the rules of creation turn it into a funded, queued debate. */
export type DebateRequest = {
  ownerId: string;
  /** Which family asked: /v1 reports missing credits as 402, /api as 429. */
  route: FundingRoute;
  question: string;
  context: string | null;
  /** Omitted: the workspace's defaultDebateMode, else fast. */
  mode?: DebateMode | undefined;
  /** A workspace the creator may write to: its owner's plan pays and its members read the debate. */
  workspaceId?: string | null | undefined;
  /** Agents and rounds when the caller overrides the mode's (agentCount, maxRounds). */
  agents?: number | undefined;
  rounds?: number | undefined;
  preset: string | null;
  /** The creating key's routing choices; provider keys never travel with a debate. */
  routing: KeyRouting | null;
  /** Options to compare (/v1): priced as a comparison. */
  compare: boolean;
  /** The options of a comparison, which its agents rank (stored with the debate); absent otherwise. */
  compareOptions?: string[] | undefined;
  /** Stop once the positions converge this far (stopWhenConverged); absent or null: every round. */
  earlyStop?: { threshold: number } | null | undefined;
  skipCache: boolean;
  providerKeys: ByokKeys | null;
  idempotencyKey: string | null;
  /** Everything that identifies the request, hashed for the Idempotency-Key check. */
  fingerprint: unknown;
  /** The debate this one forks (counted towards the source's trending). */
  forkedFromId?: string;
  /** What else the new debate's transaction writes (a fork's notification to the source's owner). */
  alsoWrite?: (em: EntityManager, debateId: string) => Promise<void>;
  /**
   * The caller's own ready attachments the debate carries, copied onto it in its transaction (the
   * originals stay); anything else named refuses the create. Needs a plan with attachments.
   */
  attachmentIds?: readonly string[] | undefined;
};

/**
 * A transaction of the caller's that the debate joins (as a savepoint, so a refusal undoes only the
 * debate's writes): the scheduler's, which creates the debate and moves its schedule on together. The job
 * is queued by `afterCommit`'s callback, which the caller runs once its transaction has committed.
 */
export type CallerTransaction = { em: EntityManager; afterCommit: (queue: () => Promise<void>) => void };

export type CreationResult = {
  debateId: string;
  fundingSource: FundingSource;
  /** True when an identical recent debate answered: no new debate, no charge. */
  cached: boolean;
  /** The judge the debate gets, named to free-plan callers (their lighter judge). */
  judgeModel: string | null;
};

export type Panel = { agents: number; rounds: number };

/**
 * How creation carries a request's attachments (attachments/debate-attachments.ts): the plan's check, the
 * copy in the new debate's transaction, and for an estimate the copy's checks without its writes, answering
 * the size of each document the debate would carry (the estimate sizes the debaters' prompts by it).
 */
export type DebateAttachments = {
  assertAllowed: (em: EntityManager, ownerId: string) => Promise<void>;
  copy: (em: EntityManager, ownerId: string, ids: readonly string[], debateId: string) => Promise<void>;
  check: (em: EntityManager, ownerId: string, ids: readonly string[]) => Promise<readonly DocumentSize[]>;
};
