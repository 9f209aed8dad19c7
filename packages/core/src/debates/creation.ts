import type { CoreResources } from '../resources.ts';
import { AppError } from '../shared/app-error.ts';
import { createDebateCreate } from './creation/create.ts';
import { createDebateEstimate } from './creation/estimate.ts';
import type { DebateAttachments } from './creation/request.ts';
import type { CreationResources } from './creation/resources.ts';
import { createDebateRetry } from './creation/retry.ts';

export type {
  CallerTransaction,
  CreationResult,
  DebateAttachments,
  DebateRequest,
} from './creation/request.ts';

/**
 * What creation runs on: `onError` hears of a refused enqueue (the debate is stored; the reconciler queues it
 * later), and without `attachments` a request naming some is refused as invalid.
 */
export type DebateCreationResources = Pick<CoreResources, 'db' | 'bus' | 'clock' | 'config' | 'onError'> & {
  attachments?: DebateAttachments;
};

/**
 * The rules that make a debate, in one place for every way one is made — POST /api/debates, POST
 * /v1/verdicts, a fork, a retry and the scheduler: the mode's panel, the concurrent limit, who pays
 * (credits, the free tier on its lighter judge, or the caller's own keys), the debit, and the dispatch to the
 * engines. Each runs in one transaction with the owner's row locked, so concurrent creates of one account run
 * one after another: the balance can never be overdrawn and the concurrent limit is exact. The job is
 * queued after commit.
 *
 * Its parts live in creation/: create, retry, funding (payer, concurrent limit, debit), idempotency and the
 * answer cache, and the dispatch; they share one `CreationResources`, built here.
 */
export function createDebateCreation({
  db,
  bus,
  clock,
  config,
  onError,
  attachments = NO_ATTACHMENTS,
}: DebateCreationResources) {
  const resources: CreationResources = {
    db,
    bus,
    clock,
    config,
    onQueueError: onError,
    upgradeUrl: `${config.appUrl}/pricing`,
    attachments,
  };
  return {
    create: createDebateCreate(resources),
    retry: createDebateRetry(resources),
    estimate: createDebateEstimate(resources),
  };
}

export type DebateCreation = ReturnType<typeof createDebateCreation>;

/** A creation without attachments (a test's, an engine's): a request naming some is refused as invalid. */
const NO_ATTACHMENTS: DebateAttachments = {
  assertAllowed: async () => {
    throw new AppError('VALIDATION_ERROR', 'Attachments are not accepted here');
  },
  copy: async () => {},
  check: async () => [],
};
